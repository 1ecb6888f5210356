"""puzzles: the seeds' other puzzles — Einstein's zebra puzzle and any zebra puzzle in a data file.

- `puzzles.zebra`: the model (categories × houses, hint kinds) and its CNF encoding;
- `puzzles.einstein`: the Einstein puzzle exactly as seed 003 encodes it;
- `puzzles.loader` (+ `puzzles.sourcemap`): TOML/JSON puzzle files, errors with lines;
- `puzzles.decoder`: models to house tables, answers, hint checks;
- `puzzles.solve`: encode, solve with `dpll.Solver`, decode, check uniqueness;
- `puzzles.cli`: `satkit puzzle einstein` and `satkit puzzle solve`.
"""
