"""puzzles: the seeds' other puzzles — zebra puzzles (Einstein's, any in a data file) and Hitman.

- `puzzles.zebra`: the model (categories × houses, hint kinds) and its CNF encoding;
- `puzzles.einstein`: the Einstein puzzle exactly as seed 003 encodes it;
- `puzzles.loader` (+ `puzzles.sourcemap`): TOML/JSON puzzle files, errors with lines;
- `puzzles.decoder`: models to house tables, answers, hint checks;
- `puzzles.solve`: encode, solve with `dpll.Solver`, decode, check uniqueness;
- `puzzles.hitman_world`: Hitman phase-1 maps and an offline copy of the course referee;
- `puzzles.hitman_sat`: the knowledge base those observations give, and SAT deduction;
- `puzzles.hitman_explore` (+ `puzzles.hitman_trace`): exploring a map; replaying traces;
- `puzzles.cli`: `satkit puzzle einstein`, `satkit puzzle solve` and `satkit puzzle hitman`.
"""
