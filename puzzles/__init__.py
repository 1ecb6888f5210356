"""puzzles: the seeds' other puzzles (Einstein's zebra puzzle, the Hitman grid)."""
