"""maze: the treasure-maze front end, back end, validator and independent search.

Modules, one job each:

- ``model``      the Maze dataclass (nodes, treasures, K, treasures and exits per node)
- ``parser``     reading the front-end input, with FILE:LINE errors and warnings
- ``writer``     writing a maze back in the front-end format
- ``encoder``    the assignment's 8 clause categories, one function per category
- ``compact``    the compact encoding (sequential counter, implied arrival clauses)
- ``cnf``        an encoded maze: streamed clauses, key, DP-input and DIMACS writers
- ``key``        the key conventions (``n At(N,I)``, ``n NODE I``, …), read and written
- ``decoder``    the back end: valuation + key -> checked path, or NO SOLUTION
- ``validator``  is a path a valid walk? (independent of any encoding)
- ``search``     the layered reference search over (node, treasures held), no SAT
- ``pipeline``   encode, solve, decode, validate (optionally for the least K)
- ``generator``  random mazes (seeded; one-way edges; planted solutions)
- ``render``     DOT text, and SVG/PNG through Graphviz or networkx + matplotlib
- ``cli``        ``satkit maze encode|decode|solve|generate|show``
"""
