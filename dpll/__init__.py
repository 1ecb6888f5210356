"""dpll: a pure-Python DPLL/CDCL SAT solver shaped like a PySAT solver."""
