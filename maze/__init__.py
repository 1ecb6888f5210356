"""maze: the treasure-maze front end, back end, validator and independent search."""
