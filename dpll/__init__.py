"""dpll: a pure-Python DPLL/CDCL SAT solver shaped like a PySAT solver.

>>> from dpll import Solver
>>> with Solver(bootstrap_with=[[1, 2], [-1]]) as s:
...     s.solve(), s.get_model()
(True, [-1, 2])
"""

from dpll.solver import NoSuchSolverError, Solver

__all__ = ["NoSuchSolverError", "Solver"]
