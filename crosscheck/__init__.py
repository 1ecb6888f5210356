"""crosscheck: run satkit's DPLL beside reference solvers and validate every answer."""
