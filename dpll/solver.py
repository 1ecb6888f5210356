"""`dpll.Solver`: the PySAT-shaped front of the dpll engines (``cdcl`` and ``classic``).

Code written for ``pysat.solvers.Solver`` runs unchanged against it::

    >>> from dpll import Solver
    >>> with Solver(bootstrap_with=[[-1, 2], [-2, 3]]) as s:
    ...     s.solve(assumptions=[1, -3])
    ...     s.get_core()
    ...     s.solve()
    ...     s.get_model()
    False
    [1, -3]
    True
    [1, 2, 3]

Conventions (the same as PySAT's MiniSat unless said otherwise):

- The empty formula is satisfiable (model ``[]``); a formula holding the empty clause
  is unsatisfiable under every assumption, and `get_core` gives None (no assumption is
  to blame), as PySAT's MiniSat does.
- Clauses may be added between solves and may use new variables (incremental use).
- ``solve`` is complete and switches every budget off; ``solve_limited`` honours the
  conflict, propagation and time budgets and `interrupt`, and returns None when one of them
  stops it. Conflict and propagation budgets count from when they are set, across calls.
- Any PySAT solver name is accepted (``Solver("m22", …)``) and runs the ``cdcl`` engine;
  AtMost constraints are refused (NotImplementedError), as PySAT's MiniSat refuses them.
- ``enum_models`` leaves the formula unchanged (PySAT's adds blocking clauses); clauses
  added while it runs apply to the models it yields next, as in PySAT.
- Ctrl-C in the main thread stops a solve call at a safe point and raises
  KeyboardInterrupt; the solver stays usable, as PySAT's (which raises its own error).
  Any other exception out of the engine in the middle of a step leaves it unusable:
  later calls raise RuntimeError instead of answering for a half-changed formula.
- Same input, options and seed give the same answers, models and statistics.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import numbers
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import IO, Any, NoReturn

from dpll.cdcl import CDCLEngine, gc_paused
from dpll.engine import STAT_KEYS, Engine, Limits
from dpll.heuristics import WATCH_HEURISTICS
from dpll.inputs import (
    MAX_VARIABLE,
    NO_ATMOST,
    ZERO_LITERAL,
    clauses_of,
    count_argument,
    declared_vars,
    has_atmosts,
    literal,
    not_a_clause,
)
from dpll.proof import ProofLog

MODES = ("cdcl", "classic")
PYSAT_NAMES = frozenset(
    (
        "cadical103", "cadical153", "cadical195", "cadical300", "cd", "cd103", "cd15", "cd153",
        "cd19", "cd195", "cd30", "cd300", "cdl", "cdl103", "cdl15", "cdl153", "cdl19", "cdl195",
        "cdl30", "cdl300", "chrono", "chronobt", "cms", "cms5", "crypto", "crypto5",
        "cryptominisat", "cryptominisat5", "ergo", "g3", "g30", "g4", "g41", "g42", "g421",
        "gc3", "gc30", "gc4", "gc41", "glucose3", "glucose30", "glucose4", "glucose41",
        "glucose42", "glucose421", "gluecard3", "gluecard30", "gluecard4", "gluecard41",
        "kissat", "kissat4", "kissat404", "ks", "ks4", "lgl", "lingeling", "m22", "maple",
        "maplechrono", "maplecm", "maplesat", "mc", "mcard", "mcb", "mcm", "mep", "mergesat3",
        "mergesat30", "mg3", "mgh", "mgs3", "minicard", "minisat-ep", "minisat-gh", "minisat22",
        "minisatep", "mpl", "msat-ep", "msat-gh", "msat22"
    )
)
"""Every solver name ``pysat.solvers.Solver`` knows (python-sat 1.9): code that names one
runs here unchanged, on the ``cdcl`` engine (a test keeps this list in step with PySAT's)."""
CDCL_HEURISTICS = ("vsids", "vsids-numbered")
CLASSIC_HEURISTICS = ("course", *WATCH_HEURISTICS)  # as dpll.classic.HEURISTICS


class NoSuchSolverError(ValueError):
    """An unknown solver name (PySAT raises its own ``pysat.solvers.NoSuchSolverError``;
    code that swaps ``from pysat.solvers import Solver, NoSuchSolverError`` for
    ``from dpll import Solver, NoSuchSolverError`` catches this one). A ValueError too."""


class TooManyVariables(MemoryError):
    """More variables than this process can hold (raised before anything changes)."""


def check_variable_room(nvars: int, have: int = 0) -> None:
    """Raise :class:`TooManyVariables` when ``nvars`` variables (``have`` of them already
    there) cannot be had: a probe of the engine's peak size per variable is allocated, so
    this fails where ``ulimit -v`` or the machine would fail the engine half-way."""
    need = (nvars - have) * _VARIABLE_BYTES
    try:
        probe = bytes(need)  # calloc'd: no page is touched (bytearray would memset)
    except MemoryError:
        raise TooManyVariables(
            f"{nvars:,} variables need about {need / 1e9:,.1f} GB, more than this "
            "process can allocate"
        ) from None
    del probe


@contextlib.contextmanager
def _ctrl_c_stops(flag: list[bool]) -> Iterator[list[bool]]:
    """While the block runs in the main thread under Python's own SIGINT handler, Ctrl-C
    sets ``flag[0]`` (which the engine polls) instead of raising KeyboardInterrupt in the
    middle of a step, which could leave a clause half-rewritten. Yields a one-item list
    that says whether Ctrl-C came."""
    came = [False]
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield came
        return

    def stop(signum: int, frame: object) -> None:
        came[0] = True
        flag[0] = True

    signal.signal(signal.SIGINT, stop)
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _engine_options(mode: str) -> frozenset[str]:
    """The keyword options the engine of ``mode`` takes beyond what `Solver` sets itself."""
    if mode == "cdcl":
        engine: type = CDCLEngine
    else:
        from dpll.classic import ClassicEngine

        engine = ClassicEngine
    taken = set(inspect.signature(engine.__init__).parameters)
    return frozenset(taken - {"self", "nvars", "clauses", "seed", "proof", "heuristic"})


_VARIABLE_BYTES = 400
"""About the most memory an engine takes per variable (cdcl's peak: 288-420 bytes)."""


def _check_proof_file(proof_file: object, binary: bool) -> None:
    """Refuse a ``proof_file`` the proof could not be written to, now rather than at the
    first lemma (a path string, or a text file for a binary proof and the reverse): by
    then the solver would be spoilt, and the message would not name the parameter."""
    kind = "a binary file (opened 'wb')" if binary else "a text file (opened 'w')"
    if isinstance(proof_file, (str, bytes, os.PathLike)):
        raise TypeError(
            f"proof_file must be an open file, {kind}, not the path {proof_file!r}"
        )
    try:
        proof_file.write(b"" if binary else "")  # type: ignore[attr-defined]
    except (AttributeError, TypeError, ValueError, io.UnsupportedOperation) as exc:
        flag = "" if binary else " (or pass binary_proof=True for a binary file)"
        raise TypeError(f"proof_file must be {kind}{flag}: {exc}") from None

def _unsupported(name: str, what: str) -> Callable[..., NoReturn]:
    """A method of PySAT's solver interface that this solver does not offer: it raises
    NotImplementedError, as PySAT's MiniSat does, so code that probes for a feature with
    ``except NotImplementedError`` works with either solver."""

    def method(self: Solver, *args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(f"{name}: {what} are not supported by satkit's solver")

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Not supported ({what}): raises NotImplementedError, as in PySAT's MiniSat."
    return method


class Solver:
    """A pure-Python SAT solver with the interface of ``pysat.solvers.Solver``.

    :param name: PySAT's solver-name slot: ``"cdcl"`` or ``"classic"`` choose the mode;
        any of PySAT's own names (``"m22"``, ``"g4"``, ``"cadical195"``, …) is accepted so
        that PySAT code runs unchanged, and means ``cdcl``.
    :param bootstrap_with: initial clauses: a list of clauses, a ``formats.Formula`` or a
        ``pysat.formula.CNF`` (a ``CNFPlus`` with AtMost constraints is refused with
        NotImplementedError, as PySAT's MiniSat does).
    :param use_timer: measure solving time (see `time`, `time_accum`); third positional
        parameter, as in PySAT.
    :param mode: ``"cdcl"`` (default: clause learning, the fast one) or ``"classic"``
        (textbook DPLL with chronological backtracking).
    :param heuristic: branching heuristic; ``cdcl``: ``"vsids"`` (default; the first
        decisions follow occurrence counts) or ``"vsids-numbered"`` (they follow the
        variable numbering, better for planning formulas numbered by time step);
        ``classic``: ``"course"`` (default), ``"random"``, ``"two-clause"``, ``"jw"``,
        ``"dlis"``.
    :param seed: random seed (0 = the deterministic default order for ``cdcl``).
    :param with_proof: log a DRUP proof (see `get_proof`, `get_proof_binary`).
    :param proof_file: an open file the proof is written to as it is found (text DRUP,
        or binary DRAT with ``binary_proof``), instead of being kept in memory: a long
        run's proof then costs no memory, and `get_proof` gives None. Implies
        ``with_proof``.
    :param incr: accepted for PySAT compatibility (Glucose's incremental mode); no effect.
    :param warm_start: accepted for PySAT compatibility; no effect.
    :param native_card: accepted for PySAT compatibility; no effect (AtMost constraints
        are refused in any case).
    :param sync_with: accepted for PySAT compatibility; no effect.
    :param engine_options: passed to the engine, e.g. ``restarts="glucose"`` for ``cdcl``;
        a name the engine does not take is a TypeError, as in PySAT.

    >>> s = Solver(bootstrap_with=[[1, 2], [-1, 2], [-2]])
    >>> s.solve(), s.get_model(), s.get_core()  # no assumption needed: no core, as in PySAT
    (False, None, None)
    >>> s.delete()
    """

    def __init__(
        self,
        name: str | None = None,
        bootstrap_with: Any = None,
        use_timer: bool = False,
        *,
        mode: str = "cdcl",
        heuristic: str | None = None,
        seed: int = 0,
        with_proof: bool = False,
        proof_file: IO[Any] | None = None,
        binary_proof: bool = False,
        incr: bool = False,
        warm_start: bool = False,
        native_card: bool = False,
        sync_with: Any = None,
        **engine_options: Any,
    ) -> None:
        if isinstance(name, str):
            name = name.lower()  # PySAT's names are not case-sensitive ("MiniSat22")
        elif name is not None:  # (PySAT's Minisat22(...) takes the clauses first, not a name)
            raise NoSuchSolverError(
                f"the solver name must be a str, not {type(name).__name__}: "
                "pass the clauses as bootstrap_with=…"
            )
        if name is not None:
            if name in MODES:
                mode = name
            elif name not in PYSAT_NAMES:
                raise NoSuchSolverError(
                    f"unknown solver name {name!r}; choose one of {', '.join(MODES)} "
                    "(or any pysat.solvers name, which means cdcl)"
                )
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        if engine_options:
            unknown = sorted(set(engine_options) - _engine_options(mode))
            if unknown:
                raise TypeError(f"Solver() got an unexpected keyword argument {unknown[0]!r}")
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        seed = int(seed)
        if seed < 0:  # random.Random(-S) is random.Random(S): -S would repeat S's run
            raise ValueError(f"seed must be 0 or more, not {seed}")
        self.mode = mode
        self.heuristic = heuristic
        self.seed = seed
        self._engine_options = engine_options
        if proof_file is not None:
            _check_proof_file(proof_file, binary_proof)
        elif binary_proof and not with_proof:
            raise ValueError(
                "binary_proof=True writes the proof to proof_file; without one, use "
                "with_proof=True and get_proof_binary()"
            )
        with_proof = with_proof or proof_file is not None
        self._proof = ProofLog(proof_file, binary=binary_proof) if with_proof else None
        self._use_timer = use_timer
        self._nof_clauses = 0
        self._nvars = 0
        self._interrupt = [False]
        self._conf_limit: int | None = None  # absolute conflict count a budget ends at
        self._prop_limit: int | None = None  # absolute propagation count
        self._time_budget: float | None = None
        self._status: bool | None = None
        self._model: list[int] | None = None
        self._core: list[int] | None = None
        self._time = 0.0
        self._time_accum = 0.0
        self._enum_stats = dict.fromkeys(STAT_KEYS, 0)
        self._final_stats: dict[str, int] | None = None  # kept by delete()
        self._broken: str | None = None  # why the engine cannot be trusted any more
        self._enumerations: list[Engine] = []  # the copies enum_models is solving
        self._engine: Engine | None = self._new_engine(0, [], self._proof)
        if bootstrap_with is not None:
            self.append_formula(bootstrap_with)

    def _new_engine(self, nvars: int, clauses: list[list[int]], proof: ProofLog | None) -> Engine:
        """An engine of the chosen mode holding ``clauses``."""
        if self.mode == "cdcl":
            if self.heuristic not in (None, *CDCL_HEURISTICS):
                raise ValueError(
                    f"unknown heuristic {self.heuristic!r} for mode 'cdcl'; "
                    f"choose one of {', '.join(CDCL_HEURISTICS)}"
                )
            options = dict(self._engine_options)
            if self.heuristic == "vsids-numbered":
                options.setdefault("occurrence_start", False)
            return CDCLEngine(nvars, clauses, seed=self.seed, proof=proof, **options)
        if self.heuristic not in (None, *CLASSIC_HEURISTICS):
            raise ValueError(
                f"unknown heuristic {self.heuristic!r} for mode 'classic'; "
                f"choose one of {', '.join(CLASSIC_HEURISTICS)}"
            )
        from dpll.classic import ClassicEngine  # imported lazily: optional at build time

        return ClassicEngine(
            nvars,
            clauses,
            heuristic=self.heuristic or "course",
            seed=self.seed,
            proof=proof,
            **self._engine_options,
        )

    # ------------------------------------------------------------ life cycle

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is MemoryError or (
            isinstance(exc_type, type) and issubclass(exc_type, MemoryError)
        ):
            self._engine = None  # out of memory: free it first, keep no statistics
            return
        self.delete()

    def delete(self) -> None:
        """Free the engine. The last status, model, core and statistics stay readable;
        adding clauses or solving afterwards raises RuntimeError, and an `enum_models`
        running meanwhile yields no more models."""
        if self._engine is not None:
            self._final_stats = self.accum_stats()
            self._engine = None

    def _live(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("this solver has been deleted")
        if self._broken is not None:
            raise RuntimeError(
                f"this solver cannot be used any more: {self._broken} stopped it in the"
                " middle of a step; build a new one"
            )
        return self._engine

    @contextlib.contextmanager
    def _step(self) -> Iterator[None]:
        """A change of the engine that an exception must not leave half-done unnoticed."""
        try:
            yield
        except BaseException as exc:
            self._broken = type(exc).__name__
            raise

    def new(
        self, name: str | None = None, bootstrap_with: Any = None, use_timer: bool = False,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        """Build the solver again after `delete` (PySAT's ``new``: a live solver is kept
        as it is, and the call does nothing)."""
        if self._engine is None:
            self.__init__(name, bootstrap_with, use_timer, **kwargs)  # type: ignore[misc]

    def start_mode(self, warm: bool = False) -> None:
        """Accepted for PySAT compatibility (warm or standard start); no effect."""

    def configure(self, parameters: dict[str, Any]) -> None:
        """Accepted for PySAT compatibility (CaDiCaL's options); no parameter applies here,
        as with PySAT's MiniSat. Engine options go to the constructor."""

    def dec_budget(self, budget: int) -> None:
        """Not supported, as in PySAT's MiniSat: raises NotImplementedError (use
        `conf_budget` or `prop_budget`)."""
        raise NotImplementedError(
            "a limit on decisions is not supported by dpll.Solver; use conf_budget or prop_budget"
        )

    # ----------------------------------------------------------------- input

    def add_clause(self, clause: Iterable[int], no_return: bool = True) -> bool | None:
        """Add one clause (an iterable of non-zero ints).

        :param no_return: when False, return False if the formula is now known to be
            unsatisfiable at the top level (True otherwise), as PySAT does. The ``cdcl``
            engine propagates each added clause; the classic engines do not, so there only
            an empty clause is noticed before the next solve.
        :raises ValueError: for a literal 0; TypeError for a non-integer literal.

        >>> s = Solver(bootstrap_with=[[-1, 2], [-1, -2]])
        >>> s.add_clause([1], no_return=False)
        False
        """
        engine = self._live()
        lits = self._checked(clause)
        self._nof_clauses += 1
        with self._step():
            engine.add_clause(lits)
            for copy in self._enumerations:
                copy.add_clause(lits)
        return self._after_adding(no_return)

    def append_formula(self, formula: Any, no_return: bool = True) -> bool | None:
        """Add many clauses: a list of clauses, a ``formats.Formula`` or a PySAT ``CNF``.

        A ``formats.Formula``'s declared variable count (``nvars``, from its header) larger
        than the largest variable used makes the extra variables known too (they appear in
        models, as ``satkit solve`` prints them); a PySAT ``CNF``'s ``nv`` does not, as in
        PySAT.
        """
        engine = self._live()
        if has_atmosts(formula):
            raise NotImplementedError(NO_ATMOST)
        self._grow(declared_vars(formula))
        batch = self._checked_batch(clauses_of(formula))
        self._nof_clauses += len(batch)
        with self._step():  # (Ctrl-C half-way through a big formula: no half formula)
            for target in (engine, *self._enumerations):
                bulk = getattr(target, "add_clauses", None)
                if bulk is not None:
                    bulk(batch)
                else:
                    for lits in batch:
                        target.add_clause(lits)
        return self._after_adding(no_return)

    def _after_adding(self, no_return: bool) -> bool | None:
        """After new clauses: an answer they refute at the top level becomes False (as in
        PySAT: status False, no model); the PySAT-style return value."""
        ok = self._top_level_ok()
        if not ok and self._status is not False:
            self._status, self._model, self._core = False, None, []
        return None if no_return else ok

    # the rest of PySAT's interface, which its MiniSat does not offer either
    activate_atmost = _unsupported("activate_atmost", "native cardinality constraints")
    add_xor_clause = _unsupported("add_xor_clause", "XOR clauses")
    set_activities = _unsupported("set_activities", "activities set from outside")
    is_decision = _unsupported("is_decision", "external propagators")
    connect_propagator = _unsupported("connect_propagator", "external propagators")
    disconnect_propagator = _unsupported("disconnect_propagator", "external propagators")
    enable_propagator = _unsupported("enable_propagator", "external propagators")
    disable_propagator = _unsupported("disable_propagator", "external propagators")
    propagator_active = _unsupported("propagator_active", "external propagators")
    observe = _unsupported("observe", "external propagators")
    reset_observed = _unsupported("reset_observed", "external propagators")
    ignore = _unsupported("ignore", "external propagators")
    sync_vars = _unsupported("sync_vars", "variable pools kept in step")
    sync_vpool = _unsupported("sync_vpool", "variable pools kept in step")
    attach_vpool = _unsupported("attach_vpool", "variable pools kept in step")
    set_xscope = _unsupported("set_xscope", "extension variables")
    xpairs = _unsupported("xpairs", "extension variables")
    xpin = _unsupported("xpin", "extension variables")
    xunpin = _unsupported("xunpin", "extension variables")
    # (python-sat 1.9.dev22 added these five: CI's fresh install had them, the test that
    # every public method of PySAT's Solver is here failed)
    shift_xscope = _unsupported("shift_xscope", "extension variables")
    xblock = _unsupported("xblock", "extension variables")
    xname = _unsupported("xname", "extension variables")
    apply_jw = _unsupported("apply_jw", "Jeroslow-Wang scores applied from outside")
    flip_bits = _unsupported("flip_bits", "local search toward weighted preferences")

    def supports_atmost(self) -> bool:
        """False: AtMost constraints are not native here (encode them, e.g. ``pysat.card``)."""
        return False

    def add_atmost(
        self, lits: Iterable[int], k: int, weights: Iterable[int] = (), no_return: bool = True
    ) -> bool | None:
        """Not supported (as in PySAT's MiniSat): raises NotImplementedError."""
        raise NotImplementedError(NO_ATMOST)

    def _checked(self, clause: Iterable[int]) -> list[int]:
        """The clause as a fresh list of ints, checked before any unknown variable becomes
        known. One clause at a time (`add_clause`) takes this lean path: 5x cheaper per
        clause than going through `_checked_batch`."""
        try:
            lits = list(clause)
        except TypeError:
            raise not_a_clause(clause) from None
        for lit in lits:
            if lit.__class__ is not int:
                lits = [literal(lit) for lit in lits]
                break
        if lits:
            if 0 in lits:
                raise ValueError(ZERO_LITERAL)
            top = max(max(lits), -min(lits))
            if top > self._nvars:
                self._grow(top)
        return lits

    def _checked_batch(self, clauses: Iterable[Iterable[int]]) -> list[Sequence[int]]:
        """The clauses as lists (or tuples) of ints, all checked before any unknown variable
        becomes known (a bad literal leaves the solver as it was).

        The common all-int case is checked in a few C-level passes over the literals,
        without copying them into one list (loading 150,000 clauses clause by clause cost
        more than solving them); other literals (numpy ints, …) are converted one by one.
        A list of int lists or tuples (what parsers give) is passed on as it is: the
        engines copy every clause into their own codes and keep none of the caller's lists
        (840,000 clauses from ``formats.dimacs``: 2.3 s to load against 2.9 s with a copy).
        """
        batch = clauses
        if not (isinstance(batch, list) and set(map(type, batch)) <= {list, tuple}):
            with gc_paused():  # 150,000 new lists: collections would cost 5x the copying
                try:
                    batch = [list(clause) for clause in clauses]
                except TypeError:
                    bad = clauses  # (the formula itself, when it is no iterable)
                    with contextlib.suppress(TypeError):
                        bad = next((c for c in clauses if not hasattr(c, "__iter__")), clauses)
                    raise not_a_clause(bad) from None
        literals = chain.from_iterable
        if set(map(type, literals(batch))) - {int}:
            batch = [[literal(lit) for lit in lits] for lits in batch]
        if 0 in literals(batch):
            raise ValueError(ZERO_LITERAL)
        top = max(max(literals(batch), default=0), -min(literals(batch), default=0))
        if top > self._nvars:
            self._grow(top)
        return batch

    def _grow(self, nvars: int) -> None:
        """Make variables 1..nvars known to the solver and its engine.

        Raises ValueError above `MAX_VARIABLE`, and MemoryError, before anything
        changes, when the memory the new variables need cannot be had (a probe of that
        size is allocated first: it fails where ``ulimit -v`` would fail the engine
        half-way, leaving it with more variables than arrays).
        """
        if nvars <= self._nvars:
            return
        if nvars > MAX_VARIABLE:
            raise ValueError(
                f"literal {nvars} exceeds the largest variable number {MAX_VARIABLE} (2^31-1)"
            )
        check_variable_room(nvars, self._nvars)
        engine = self._live()
        with self._step():
            engine.ensure_vars(nvars)
            for copy in self._enumerations:
                copy.ensure_vars(nvars)
        self._nvars = nvars

    def _top_level_ok(self) -> bool:
        return bool(getattr(self._live(), "ok", True))

    # ----------------------------------------------------------------- solve

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        """Decide satisfiability under the assumption literals. Complete: it switches every
        budget off first, as PySAT's (MiniSat's) ``solve`` does.

        >>> Solver(bootstrap_with=[[-1, 2], [-2, 3]]).solve(assumptions=[1, -3])
        False
        """
        self._live()  # (a deleted solver says so before its assumptions are looked at)
        assume = self._assumptions(assumptions)
        # (after the arguments: a call refused for them never reached the solver, and keeps
        # the budgets, as PySAT's: audit 28-B #2)
        self._conf_limit = self._prop_limit = self._time_budget = None
        result = self._run(assume, Limits(interrupt=[False]))  # (the flag: Ctrl-C's)
        assert result is not None  # no limit was given
        return result

    def solve_limited(
        self, assumptions: Iterable[int] = (), expect_interrupt: bool = False
    ) -> bool | None:
        """Like `solve`, but None when a budget (`conf_budget`, `prop_budget`,
        `time_budget`) runs out or `interrupt` is called (from any thread).

        A budget already spent, or an interrupt made before the call and not cleared,
        gives None at once (False if the formula is already refuted at the top level).
        ``expect_interrupt`` is accepted for PySAT compatibility; interrupts always work.
        The solver stays usable after an unknown answer.
        """
        start = time.process_time()
        stats = self._live().stats()
        assume = self._assumptions(assumptions)  # checked (and made known) on every path
        conflicts = propagations = deadline = None
        if self._conf_limit is not None:
            conflicts = max(0, self._conf_limit - stats["conflicts"])
        if self._prop_limit is not None:
            propagations = max(0, self._prop_limit - stats["propagations"])
        if self._time_budget is not None:
            deadline = time.monotonic() + self._time_budget
        if self._interrupt[0] or conflicts == 0 or propagations == 0:
            self._status = False if not self._top_level_ok() else None
            self._model = None
            self._core = [] if self._status is False else None
            self._timed(start)  # (a call all the same, as PySAT times it)
            return self._status
        limits = Limits(
            conflicts=conflicts,
            propagations=propagations,
            deadline=deadline,
            interrupt=self._interrupt,
        )
        return self._run(assume, limits)

    def _assumptions(self, assumptions: Iterable[int]) -> list[int]:
        """The assumptions as ints; their variables become known (`nof_vars`), as in PySAT."""
        assume = [literal(lit) for lit in assumptions]
        if 0 in assume:
            raise ValueError("an assumption must be a non-zero int, not 0")
        # every literal checked before any variable is added: [5, 0] refused left 5
        # variables behind (audit 21-A #1); `_grow` itself changes nothing when it refuses
        self._grow(max(map(abs, assume), default=0))
        return assume

    def _run(self, assume: list[int], limits: Limits) -> bool | None:
        """Solve under ``assume`` (checked by `_assumptions`) within ``limits``."""
        engine = self._live()
        start = time.process_time()  # (CPU time, as PySAT's use_timer measures)
        flag = limits.interrupt if limits.interrupt is not None else [False]
        before = flag[0]
        # (Ctrl-C's handler is in place before the step starts and until after it ends)
        with _ctrl_c_stops(flag) as ctrl_c, self._step():
            result = engine.solve(assume, limits)
        if ctrl_c[0]:
            flag[0] = before  # the engine stopped at a safe point and is usable again
            self._status, self._model, self._core = None, None, None
            raise KeyboardInterrupt
        self._timed(start)
        self._status = result
        self._model = engine.model() if result is True else None
        self._core = engine.core() if result is False else None
        return result

    def _timed(self, start: float) -> None:
        """Record a call that began at ``start`` (``time.process_time()``) as the last one."""
        self._time = time.process_time() - start
        self._time_accum += self._time

    def conf_budget(self, budget: int = -1) -> None:
        """Let the following `solve_limited` calls spend ``budget`` more conflicts in all
        (counted from now, as in PySAT; 0 or negative: no limit). `solve` clears it."""
        budget = count_argument(budget, "conf_budget's budget")
        conflicts = self._live().stats()["conflicts"]
        self._conf_limit = conflicts + budget if budget > 0 else None

    def prop_budget(self, budget: int = -1) -> None:
        """Let the following `solve_limited` calls spend ``budget`` more propagations in all
        (counted from now, as in PySAT; 0 or negative: no limit). `solve` clears it."""
        budget = count_argument(budget, "prop_budget's budget")
        propagations = self._live().stats()["propagations"]
        self._prop_limit = propagations + budget if budget > 0 else None

    def time_budget(self, seconds: float | None = None) -> None:
        """Limit each following `solve_limited` call to ``seconds`` of wall-clock time,
        counted from the start of the call (None, 0 or negative: no limit). Not in PySAT;
        `solve` clears it like the other budgets."""
        self._time_budget = seconds if seconds is not None and seconds > 0 else None

    def propagate(
        self, assumptions: Iterable[int] = (), phase_saving: int = 0
    ) -> tuple[bool, list[int]]:
        """Unit-propagate the assumptions, each on its own level, without searching (as
        PySAT's ``propagate``): the status (False if an assumption is false or a conflict
        arises) and the literals assigned by them, assumptions included. ``cdcl`` only.
        """
        method = self._cdcl_only("propagate_assumptions", "propagate")
        checked = self._checked(assumptions)
        start = time.process_time()
        try:
            return method(checked, phase_saving)
        finally:
            self._timed(start)

    def set_phases(self, literals: Iterable[int] = (), hard: bool = False) -> None:
        """Branch on these variables with these polarities (as PySAT's ``set_phases``):
        hard, as in MiniSat-GH and CaDiCaL, where PySAT's Minisat22 lets phase saving
        change them (PySAT's Hitman needs them hard). ``hard`` is taken for PySAT's
        signature and, as by PySAT's Minisat22 and Glucose4, ignored: `prefer_phases`
        gives soft phases. ``cdcl`` only."""
        self._cdcl_only("set_phases")(self._checked(literals))

    def prefer_phases(self, literals: Iterable[int] = ()) -> None:
        """Prefer these polarities next time their variables are branched on, as phase
        saving may change them later (what PySAT's Minisat22 does for ``set_phases``): a
        heuristic, where `set_phases` is a rule. satkit's own; ``cdcl`` only."""
        self._cdcl_only("prefer_phases")(self._checked(literals))

    def _cdcl_only(self, method: str, shown: str | None = None) -> Callable[..., Any]:
        """The engine's ``method``, which only the cdcl engine has (NotImplementedError
        naming ``shown``, the Solver's method, in the classic mode)."""
        found = getattr(self._live(), method, None)
        if found is None:
            raise NotImplementedError(f"{shown or method} is available in the cdcl mode only")
        return found

    def interrupt(self) -> None:
        """Stop the running (or next) `solve_limited` call; it returns None.

        Safe to call from another thread or a signal handler. The flag stays set until
        `clear_interrupt`.
        """
        self._interrupt[0] = True

    def clear_interrupt(self) -> None:
        """Clear a previous `interrupt` so that solving can go on."""
        self._interrupt[0] = False

    # --------------------------------------------------------------- results

    def get_status(self) -> bool | None:
        """The result of the last solve call (None: unknown or never solved)."""
        return self._status

    def get_model(self) -> list[int] | None:
        """After SAT: every variable 1..`nof_vars` as a signed literal, sorted; else None."""
        return None if self._model is None else list(self._model)

    def get_core(self) -> list[int] | None:
        """After UNSAT: a subset of the assumptions that is unsatisfiable with the
        formula; None otherwise, and None when the formula is refuted without any
        assumption (it holds the empty clause, or propagation at the top level refutes
        it), as PySAT's solvers answer. A formula unsatisfiable on its own may still get a
        non-empty core, the assumptions the search used, as with PySAT."""
        return list(self._core) if self._core else None

    def get_proof(self) -> list[str] | None:
        """The DRUP proof so far as text lines (``"1 -2 0"``, ``"d 1 -2 0"``), or None
        without ``with_proof=True`` (or with ``proof_file``, where it went). After UNSAT
        without assumptions it ends with ``"0"``."""
        return None if self._proof is None else self._proof.lines()

    def get_proof_binary(self) -> bytes | None:
        """The same proof in binary DRAT, or None without ``with_proof=True`` (or with
        ``proof_file``)."""
        return None if self._proof is None else self._proof.to_binary()

    def accum_stats(self) -> dict[str, int]:
        """Counters over every solve call: decisions, propagations, conflicts, restarts,
        learned (and splits for ``classic``)."""
        if self._engine is None:
            return dict(self._final_stats or self._enum_stats)
        stats = dict(self._engine.stats())
        for key, value in self._enum_stats.items():
            stats[key] = stats.get(key, 0) + value
        return stats

    def time(self) -> float:
        """CPU seconds (``time.process_time``, as PySAT's) spent in the last solve call, one
        of `enum_models`' solves or `propagate` (0.0 unless ``use_timer=True``)."""
        return self._time if self._use_timer else 0.0

    def time_accum(self) -> float:
        """CPU seconds spent in all of them (0.0 unless ``use_timer=True``)."""
        return self._time_accum if self._use_timer else 0.0

    def nof_vars(self) -> int:
        """The number of variables: the largest one seen in clauses, assumptions or a
        declared variable count."""
        return self._nvars

    def nof_clauses(self) -> int:
        """The number of clauses added (as given; tautologies and duplicates included)."""
        return self._nof_clauses

    def _timed_solve(self, engine: Engine, assume: list[int]) -> bool:
        """``engine.solve`` under no limit, timed as a solve call."""
        start = time.process_time()
        try:
            return bool(engine.solve(assume, Limits()))
        finally:
            self._timed(start)

    def enum_models(self, assumptions: Iterable[int] = ()) -> Iterator[list[int]]:
        """Yield every model (over variables 1..`nof_vars`) under the assumptions.

        Unlike PySAT's, the solver's formula is left unchanged: the blocking clauses go
        to a private copy of the formula, so `solve` afterwards answers as before. As in
        PySAT, `get_status` is True and `get_model` the model yielded while one is out,
        and once every model is out `get_status` is False (with no core: the blocking
        clauses, not the assumptions, made it so; when there was no model at all,
        `get_core` is the assumptions' core, as after `solve`). The blocking clause is made
        before a model is yielded: changing the list yielded changes nothing.

        >>> with Solver(bootstrap_with=[[-1, 2], [-2, 3]]) as s:
        ...     for m in s.enum_models():
        ...         print(m)
        [-1, -2, -3]
        [-1, -2, 3]
        [-1, 2, 3]
        [1, 2, 3]
        """
        assume = self._assumptions(assumptions)
        # every budget off, as PySAT's enumeration (its `solve` in a loop) leaves them
        self._conf_limit = self._prop_limit = self._time_budget = None
        nvars = self.nof_vars()
        copy = self._new_engine(nvars, self._live().equivalent_clauses(), None)
        given = getattr(self._live(), "given_phases", None)
        if given is not None:  # the copy branches as the solver would (audit 23-A #2)
            hard, soft = given()
            copy.prefer_phases(soft)  # (phases given also keep the lucky phases off)
            copy.set_phases(hard)
        owner = self._enumerations  # (`new` makes another: this solver is then gone)
        owner.append(copy)  # clauses added meanwhile go to the copy too
        try:
            # (the getters said what the last plain solve left, an UNSAT with its core
            # included, while models were yielded and after: audit 21-A #2)
            found = False
            while self._timed_solve(copy, assume):
                found = True
                model = copy.model()
                self._status, self._model, self._core = True, list(model), None
                blocking = [-lit for lit in model]  # (before the caller may change `model`)
                yield model
                if self._engine is None or self._enumerations is not owner:
                    return  # deleted (or made anew) meanwhile: the enumeration ends with it
                copy.add_clause(blocking)
                if not model:
                    break  # the empty formula has exactly one (empty) model
            # no model at all: the assumptions' core, as `solve` gives (audit 24-B #5)
            core = None if found else copy.core()
            self._status, self._model, self._core = False, None, core
        finally:
            owner.remove(copy)
            if self._enumerations is owner:  # (else made anew: they were the old solver's)
                for key, value in copy.stats().items():
                    self._enum_stats[key] = self._enum_stats.get(key, 0) + value
