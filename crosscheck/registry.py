"""The registry of solvers with the PySAT shape: our DPLL configurations and PySAT's, by name.

Names (a plain table, easy to grep):

- ``dpll`` (= ``dpll:cdcl``): our CDCL engine; ``dpll:classic``: our textbook
  DPLL with its default heuristic; ``dpll:classic/<heuristic>`` picks one
  (``course``, ``random``, ``two-clause``, ``jw``, ``dlis``).
- every solver PySAT knows, by the names in ``pysat.solvers.SolverNames``
  (``minisat22``, ``cadical153``, ``glucose4``, …); their short aliases
  (``m22``, ``cd15``, ``g4``, …) are accepted too.
- external programs, run on a DIMACS export (:mod:`crosscheck.external`):
  ``bin:minisat``, ``bin:cadical``, ``bin:kissat``, ``bin:picosat`` (looked up
  on PATH when a solver is made, each run with its own options and output
  convention, also as ``bin:/path/to/<one of those>``), or ``bin:PROGRAM``
  for any other program on PATH or ``bin:/path/to/solver``: run as
  ``PROGRAM FILE.cnf`` and its stdout read as SAT-competition output
  (``s SATISFIABLE``/``UNSATISFIABLE``/``UNKNOWN`` and ``v … 0`` lines; exit
  code 0, 10 or 20). The prefix keeps them apart from PySAT's names
  (``kissat`` is PySAT's alias of ``kissat404``).
- names added at run time with :func:`register_solver` (tests install
  deliberately faulty wrappers this way; nothing registers one by default).

Every solver made here has the PySAT surface: ``solve``, ``solve_limited``,
``get_model``, ``get_core``, ``accum_stats``, ``add_clause``,
``append_formula``, ``interrupt``, ``delete`` and ``with … as s``.

>>> with make_solver("minisat22", bootstrap_with=[[1, 2], [-1]]) as solver:
...     solver.solve(), solver.get_model()
(True, [-1, 2])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

OUR_SOLVERS = ("dpll", "dpll:cdcl", "dpll:classic")
"""Our own configurations (``dpll:cdcl/vsids-numbered`` and ``dpll:classic/<heuristic>``
are also accepted)."""

CDCL_VARIANTS = ("vsids", "vsids-numbered")
"""The cdcl engine's heuristics, listed as ``dpll:cdcl/<heuristic>`` (``dpll:cdcl/vsids``,
the default spelled out, is ``dpll:cdcl``)."""

CLASSIC_HEURISTICS = ("course", "random", "two-clause", "jw", "dlis")
"""The classic engine's heuristics, listed as ``dpll:classic/<heuristic>``."""


def _pysat_table() -> dict[str, str]:
    """Every accepted PySAT name or alias -> the name to hand to ``pysat.solvers.Solver``."""
    from pysat.solvers import SolverNames

    table: dict[str, str] = {}
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        # PySAT takes the aliases; some canonical names (minisatgh, cryptosat) are not among them.
        for alias in (canonical, *aliases):
            table.setdefault(alias, aliases[0])
    return table


def pysat_solver_names() -> list[str]:
    """The PySAT solver names (``SolverNames`` attributes), sorted."""
    from pysat.solvers import SolverNames

    return sorted(
        name
        for name, value in vars(SolverNames).items()
        if not name.startswith("_") and isinstance(value, tuple)
    )


EXTERNAL_PREFIX = "bin:"
"""Names of external programs start with this (``bin:cadical``)."""

_REGISTERED: dict[str, Callable[..., Any]] = {}


def external_solver_names() -> list[str]:
    """``bin:<program>`` for every program whose I/O style is known (installed or not);
    ``bin:`` with any other program or path is accepted too (SAT-competition output)."""
    from crosscheck.external import PROGRAMS

    return [EXTERNAL_PREFIX + program for program in PROGRAMS]


def solver_names() -> list[str]:
    """Every name :func:`make_solver` accepts (aliases of PySAT solvers aside)."""
    ours = [
        *OUR_SOLVERS,
        *(f"dpll:classic/{h}" for h in CLASSIC_HEURISTICS),
        *(f"dpll:cdcl/{h}" for h in CDCL_VARIANTS),
    ]
    return [*ours, *pysat_solver_names(), *external_solver_names(), *_REGISTERED]


def register_solver(name: str, factory: Callable[..., Any]) -> None:
    """Make ``name`` a solver: ``factory(bootstrap_with=…, **options)`` builds it.

    Meant for tests and experiments (e.g. a deliberately faulty wrapper that the
    fuzzer must catch). Raises ValueError when ``name`` is already a solver name.
    Undo with :func:`unregister_solver`.
    """
    try:
        taken = canonical_name(name)
    except ValueError:
        taken = None
    if taken is not None or not name:
        raise ValueError(f"{name!r} is already a solver name")
    _REGISTERED[name] = factory


def unregister_solver(name: str) -> None:
    """Forget a name added by :func:`register_solver` (no error if it is not there)."""
    _REGISTERED.pop(name, None)


def solver_kind(name: str) -> str:
    """``"ours"``, ``"pysat"``, ``"external"`` or ``"registered"`` for a valid name.

    >>> solver_kind("dpll"), solver_kind("m22"), solver_kind("bin:cadical")
    ('ours', 'pysat', 'external')
    """
    canonical = canonical_name(name)
    if canonical in _REGISTERED:
        return "registered"
    if canonical.startswith("dpll"):
        return "ours"
    if canonical.startswith(EXTERNAL_PREFIX):
        return "external"
    return "pysat"


def unavailable_reason(name: str) -> str | None:
    """Why ``name`` cannot be made here (an external program missing from PATH,
    a PySAT solver this build lacks), or None when it can."""
    canonical = canonical_name(name)
    if canonical.startswith(EXTERNAL_PREFIX):
        from crosscheck.external import program_problem

        problem = program_problem(canonical[len(EXTERNAL_PREFIX) :])
        if problem is not None:
            return f"solver {canonical!r} is not available: {problem}"
        return None
    try:
        make_solver(canonical).delete()
    except (ValueError, ImportError) as exc:
        message = str(exc)
        if message.startswith("solver "):
            return message
        return f"solver {canonical!r} is not available: {message}"
    return None


def canonical_name(name: str) -> str:
    """The registry name for ``name`` (a PySAT alias maps to its solver); ValueError if unknown.
    PySAT's names are taken in any case, as PySAT takes them (``MiniSat22``).

    >>> canonical_name("m22"), canonical_name("dpll"), canonical_name("Glucose4")
    ('minisat22', 'dpll:cdcl', 'glucose4')
    """
    if name in ("dpll", "dpll:cdcl", "dpll:cdcl/vsids"):
        return "dpll:cdcl"
    if name == "dpll:classic" or (
        name.startswith("dpll:classic/") and name.split("/", 1)[1] in CLASSIC_HEURISTICS
    ):
        return name
    if name.startswith("dpll:cdcl/") and name.split("/", 1)[1] in CDCL_VARIANTS:
        return name
    if name in _REGISTERED:
        return name
    if name.startswith(EXTERNAL_PREFIX):
        if name[len(EXTERNAL_PREFIX) :].strip():
            return name  # any program: a known one's convention, else SAT-competition output
        raise _unknown(name)
    from pysat.solvers import SolverNames

    lowered = name.lower()
    for canonical in pysat_solver_names():
        if lowered == canonical or lowered in getattr(SolverNames, canonical):
            return canonical
    raise _unknown(name)


def maze_options(name: str) -> dict[str, Any]:
    """The engine options the solver ``name`` gets on a maze: `maze.pipeline.DPLL_OPTIONS`
    for our default CDCL (``dpll``, ``dpll:cdcl``, ``dpll:cdcl/vsids``), as `satkit maze
    solve` gives them; none for any other solver (a named heuristic gets what it names)."""
    if canonical_name(name) != "dpll:cdcl":
        return {}
    from maze.pipeline import DPLL_OPTIONS  # (imported when asked: --help stays light)

    return dict(DPLL_OPTIONS)


def _unknown(name: str) -> ValueError:
    return ValueError(
        f"unknown solver {name!r}; valid names: {', '.join(solver_names())}, "
        "or bin:PROGRAM for any other program (SAT-competition output)"
    )


def make_solver(name: str, bootstrap_with: Any = None, **options: Any) -> Any:
    """A new solver called ``name`` (see :func:`solver_names`), loaded with ``bootstrap_with``.

    ``bootstrap_with`` is anything the solver accepts as a formula (a list of
    clauses, a ``pysat.formula.CNF``, …). ``options`` go to the solver's
    constructor (e.g. ``seed=3`` for ours, ``use_timer=True`` for PySAT's).
    Raises ValueError for an unknown name (the message lists the valid ones)
    and for a PySAT solver this PySAT build does not include.
    """
    if name in ("dpll", "dpll:cdcl"):
        return _ours(bootstrap_with, mode="cdcl", **options)
    if name == "dpll:classic":
        return _ours(bootstrap_with, mode="classic", **options)
    if name.startswith("dpll:classic/"):
        heuristic = name.split("/", 1)[1]
        if heuristic not in CLASSIC_HEURISTICS:
            raise _unknown(name)
        return _ours(bootstrap_with, mode="classic", heuristic=heuristic, **options)
    if name.startswith("dpll:cdcl/"):
        heuristic = name.split("/", 1)[1]
        if heuristic not in CDCL_VARIANTS:
            raise _unknown(name)
        return _ours(bootstrap_with, mode="cdcl", heuristic=heuristic, **options)
    if name in _REGISTERED:
        return _REGISTERED[name](bootstrap_with=bootstrap_with, **options)
    if name.startswith(EXTERNAL_PREFIX):
        from crosscheck.external import ExternalSolver

        canonical_name(name)  # ValueError for an unknown program
        return ExternalSolver(name[len(EXTERNAL_PREFIX) :], bootstrap_with=bootstrap_with)
    table = _pysat_table()
    if name not in table and name.lower() not in table:
        raise _unknown(name)
    name = name if name in table else name.lower()
    from pysat import solvers

    unavailable = ValueError(f"solver {name!r} is not available in this PySAT installation")
    if table[name] == table["cryptosat"] and not getattr(solvers, "cms_present", False):
        raise unavailable  # constructing it would fail an assert inside PySAT
    try:
        return solvers.Solver(name=table[name], bootstrap_with=bootstrap_with, **options)
    except solvers.NoSuchSolverError:
        raise unavailable from None


def _ours(bootstrap_with: Any, **options: Any) -> Any:
    from dpll import Solver  # imported here: crosscheck must load even while dpll changes

    return Solver(bootstrap_with=bootstrap_with, **options)
