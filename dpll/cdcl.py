"""The CDCL search engine: MiniSat-style conflict-driven clause learning in pure Python.

Features (each measured before it was kept; see bench/README.md):

- literal codes ``2*v + sign`` (``~l`` is ``l ^ 1``, the variable is ``l >> 1``) and a
  value list indexed by literal code (1 true, -1 false, 0 unassigned);
- two watched literals with blockers, watch lists compacted in place, binary clauses in
  separate implicit watch lists; ``trail``/``trail_lim``/``qhead``; no recursion anywhere;
- input clauses of `HUGE` literals or more in watch lists of their own, each remembering
  where its last look for a new watch ended (Gent's circular search), so that falsifying
  one literal after another costs linear, not quadratic, time;
- 1UIP conflict analysis with recursive learned-clause minimisation (MiniSat's
  ``litRedundant`` with abstract levels), non-chronological backjumping;
- VSIDS on a lazy binary heap (``heapq`` with stale entries), started from literal
  occurrence counts (Chaff's initial scores) with each variable's more frequent polarity
  as its first phase; phase saving, and target phases (the values of the longest
  conflict-free trail seen, as in CaDiCaL); reason-side bumping (the variables of the
  reasons of the learnt clause's literals are bumped too, as in MapleCOMSPS and CaDiCaL;
  off for mazes, `maze.pipeline.DPLL_OPTIONS`, and for the Hitman knowledge base);
- before the first search, CaDiCaL's lucky phases (`dpll.lucky`): all variables false, or
  all true, when a scan shows every clause allows it; then every variable decided false,
  or true, from the highest number down, each attempt given up at its first conflict (off
  for mazes, `maze.pipeline.DPLL_OPTIONS`);
- Luby restarts (unit 1000 conflicts) or glucose-style restarts (EMA of learnt-clause LBD);
- rephasing by local search (probSAT, `dpll.walk`) at restarts once the search has
  spent some conflicts, given up when it stops getting closer to a model;
- learned-clause deletion by LBD (glucose schedule; LBD <= 2 kept forever);
- assumptions with a final-conflict core (MiniSat's ``analyzeFinal``);
- budgets (conflicts, propagations, deadline) and an interrupt flag polled once per
  conflict and every few thousand decisions, so a conflict-free run still stops;
- DRUP proof logging of every learnt clause, every deletion and the final empty clause.

References: N. Eén, N. Sörensson, "An Extensible SAT-solver" (SAT 2003) and MiniSat 2.2
``core/Solver.cc``; G. Audemard, L. Simon, "Predicting Learnt Clauses Quality in Modern
SAT Solvers" (IJCAI 2009, glucose); M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of
Las Vegas algorithms" (1993); J. H. Liang, V. Ganesh, P. Poupart, K. Czarnecki, "Learning
Rate Based Branching Heuristic for SAT Solvers" (SAT 2016).

Reasons are stored per variable: ``None`` for decisions, assumptions and top-level facts,
an ``int`` (the other, false literal) for an implication by a binary clause, or the clause
list itself, whose position 0 holds the implied literal.
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
from collections.abc import Callable, Iterable, Iterator
from heapq import heapify, heappop, heappush
from itertools import chain
from operator import add

from dpll.engine import Limits, ProofSink
from dpll.lucky import lucky
from dpll.walk import probsat

_RESCALE = 1e100
_POLL_DECISIONS = 2047  # poll budgets/interrupt every 2048 decisions without a conflict
_POLL_PROPAGATIONS = 1 << 16  # ... and every 65536 literals within one propagation
_NEVER = 1 << 62
HUGE = 32  # input clauses this long get their own watch lists (see `_Huge`)


class _Huge(list):
    """An input clause of at least `HUGE` literals, and where its last look for a new watch
    ended (``pos``, at least 2). Scanning from position 2 each time, as for short clauses,
    costs O(n) per watch move: a clause of 80,000 literals falsified one decision after
    another took 108 s. Starting where the last look ended and wrapping around (I. Gent,
    "Optimal Implementation of Watched Literals and More General Techniques", JAIR 2013)
    makes that linear. Short clauses do not pay for it: their loop has no position.
    `HUGE` is 32 (it was 256): falsified in order, a clause of n literals still cost about
    n²/2 reads below it, and 3,000 clauses of 255 literals took 3.5 s under vsids-numbered
    (review 23) against 0.9 s now; no clause of the benchmark families or of the mazes is
    that long, and SATLIB's ii family, which has some, searches as fast either way."""

    __slots__ = ("pos",)

    def __init__(self, lits: Iterable[int]) -> None:
        super().__init__(lits)
        self.pos = 2


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (restored afterwards).

    The engine's data holds no reference cycles and the search makes none (with the
    collector off, ``gc.collect()`` after solving a 1,000-node maze, uf250-01 or hole8
    finds nothing), but making millions of small lists and tuples triggers full
    collections that rescan every clause: loading 10^6 binary clauses takes 2.3 s of
    CPU with the collector running and 1.0 s without, and the 1,000-node maze solve
    spent 0.39 s of 2.5 s in 599 collections.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def luby(y: float, x: int) -> float:
    """The x-th term (from 0) of the Luby sequence scaled by powers of ``y``.

    >>> [int(luby(2, i)) for i in range(10)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2]
    """
    size, seq = 1, 0
    while size < x + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x = x % size
    return y**seq


def _to_dimacs(lits: list[int]) -> list[int]:
    """Literal codes to DIMACS integers."""
    return [-(l >> 1) if l & 1 else l >> 1 for l in lits]


class CDCLEngine:
    """A conflict-driven clause-learning engine implementing `dpll.engine.Engine`.

    ``restarts`` is ``"luby"`` (default, ``luby_unit`` conflicts per unit) or
    ``"glucose"``; ``seed`` (0 = none) perturbs the initial variable order and phases
    (with ``occurrence_start``, only among variables of equal occurrence counts, and the
    phases of variables that occur as often negated as not);
    ``proof`` receives DRUP steps. Learnt clauses are reduced after ``first_reduce``
    conflicts, then every ``first_reduce + k * reduce_inc``. ``target_phase`` decides
    with the values of the longest conflict-free trail seen (else the saved phase).
    ``walk`` rephases by local search at restarts once ``walk_min_conflicts`` have been
    spent (see `rephase_walk` for ``walk_effort`` and ``walk_patience``).
    ``occurrence_start`` orders the first decisions by occurrence counts (see
    `start_from_occurrences`); without it they follow the variable numbering.
    ``reason_bump`` is the share of a bump the reason-side variables of each learnt
    clause get (0: none; see `_bump_reason_side`). ``lucky`` tries CaDiCaL's lucky
    assignments (`dpll.lucky`) before the first search, unless that solve has
    assumptions or phases were given (`set_phases`, `prefer_phases`).
    """

    def __init__(
        self,
        nvars: int = 0,
        clauses: list[list[int]] | None = None,
        *,
        seed: int = 0,
        proof: ProofSink | None = None,
        restarts: str = "luby",
        luby_unit: int = 1000,
        var_decay: float = 0.95,
        first_reduce: int = 1000,
        reduce_inc: int = 100,
        target_phase: bool = True,
        walk: bool = True,
        walk_min_conflicts: int = 1000,
        walk_effort: float = 0.3,
        walk_patience: int = 10,
        occurrence_start: bool = True,
        reason_bump: float = 1.0,
        lucky: bool = True,
    ) -> None:
        if restarts not in ("luby", "glucose"):
            raise ValueError(f"unknown restart policy {restarts!r} (luby, glucose)")
        if not 0.0 < var_decay < 1.0:
            raise ValueError("var_decay must be between 0 and 1")
        self.proof = proof
        self.restart_policy = restarts
        self.luby_unit = luby_unit
        self.var_inc = 1.0
        self.var_decay_inv = 1.0 / var_decay
        self.first_reduce = first_reduce
        self.reduce_inc = reduce_inc
        self.rng = random.Random(seed) if seed else None
        self.use_target = target_phase
        self.target_len = 0  # length of the conflict-free trail the target phases hold
        self.walk = walk
        self.walk_min_conflicts = walk_min_conflicts
        self.walk_effort = walk_effort
        self.walk_patience = walk_patience
        self.start_pending = occurrence_start  # start_from_occurrences before the first search
        self.reason_bump = reason_bump  # reason-side bump, as a share of a bump; 0 = none
        self.lucky_pending = lucky  # try `dpll.lucky` before the first search
        self.user_phase: list[int] = [-1]  # by variable: set_phases's polarity; -1 = none
        self.preferred: set[int] = set()  # variables whose saved phase prefer_phases chose
        self.walk_rng = random.Random(seed)
        self.walk_best = 1 << 62  # fewest unsatisfied clauses any walk reached
        self.walk_fails = 0  # walks in a row that did not improve on walk_best
        self.walk_props = 0  # propagation count at the last walk
        self.n_walks = 0
        self.n_flips = 0

        self.nvars = 0
        self.val: list[int] = [0, 0]  # by literal code
        self.level: list[int] = [0]  # by variable
        self.reason: list[object] = [None]
        self.phase: list[int] = [1]  # 1 = negative first (MiniSat's default)
        self.target: list[int] = [-1]  # target phase by variable; -1 = none
        self.act: list[float] = [0.0]
        self.inheap: list[bool] = [False]
        self.seen: list[int] = [0]
        self.watches: list[list | None] = [None, None]  # long clauses, by literal code
        self.huge_watches: list[list | None] = [None, None]  # clauses of HUGE+ literals
        self.bins: list[list[int] | None] = [None, None]  # binary clauses, by literal code
        self.heap: list[tuple[float, int]] = []  # variables of positive activity
        self.cursor = 1  # no free variable of zero activity has a position below this
        # the decision order of zero-activity variables: position -> variable, and the
        # position of each literal code's variable; None = by number (position = variable)
        self.order: list[int] | None = None
        self.rank: list[int] | None = None
        self.level_stamp: list[int] = [0]
        self.stamp = 0

        self.trail: list[int] = []
        self.trail_lim: list[int] = []
        self.qhead = 0
        self.clauses: list[list[int]] = []  # original long clauses
        self.learnts: list[list[int]] = []  # learnt long clauses
        self.lbds: list[int] = []  # LBD of each learnt clause, same order
        self.ok = True  # False once the formula is UNSAT at level 0
        self.simp_assigns = -1  # trail size at the last top-level simplification
        self.simp_props = 0  # no simplification before this propagation count
        self.proof_units = 0  # top-level literals already logged as unit lemmas

        self.n_decisions = 0
        self.n_propagations = 0
        self.n_conflicts = 0
        self.n_restarts = 0
        self.n_learned = 0
        self.next_reduce = first_reduce
        self.reduce_count = 0
        self.lbd_fast = 0.0
        self.lbd_slow = 0.0

        self._model: list[int] = []
        self._core: list[int] = []
        # while a limited solve runs: polled every _POLL_PROPAGATIONS propagated literals,
        # so that a deadline or interrupt stops even one huge propagation (a propagation
        # budget does not: the count is updated when a propagation ends, as in MiniSat);
        # `stopped` tells the search it did
        self.stop_check: Callable[[], bool] | None = None
        self.stopped = False

        self.ensure_vars(nvars)
        if clauses:
            self.add_clauses(clauses)

    # ------------------------------------------------------------------ set-up

    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known (new ones unassigned, lowest activity)."""
        old = self.nvars
        if nvars <= old:
            return
        grow = nvars - old
        self.nvars = nvars
        self.val.extend([0] * (2 * grow))
        self.level.extend([0] * grow)
        self.target.extend([-1] * grow)
        self.user_phase.extend([-1] * grow)
        self.reason.extend([None] * grow)
        self.seen.extend([0] * grow)
        self.watches.extend([None] * (2 * grow))
        self.huge_watches.extend([None] * (2 * grow))
        self.bins.extend([None] * (2 * grow))
        self.level_stamp.extend([0] * grow)
        rng = self.rng
        if rng is None:
            # zero activity: decided in variable order through `cursor`, not the heap
            self.phase.extend([1] * grow)
            self.act.extend([0.0] * grow)
            self.inheap.extend([True] * grow)  # nothing to push when unassigned
            order = self.order
            if order is None:
                self.cursor = min(self.cursor, old + 1)
            else:  # new variables go last in the order
                self.cursor = min(self.cursor, len(order))
                rank = self.rank
                for v in range(old + 1, nvars + 1):
                    rank.extend((len(order), len(order)))
                    order.append(v)
            return
        self.inheap.extend([True] * grow)
        self.phase.extend([rng.getrandbits(1) for _ in range(grow)])
        fresh = [rng.random() * 1e-5 for _ in range(grow)]
        self.act.extend(fresh)
        entries = [(-a, v) for v, a in zip(range(old + 1, nvars + 1), fresh, strict=True)]
        if old == 0 or not self.heap:
            self.heap.extend(entries)
            heapify(self.heap)
        else:
            for entry in entries:
                heappush(self.heap, entry)

    def add_clause(self, lits: list[int]) -> None:
        """Add a clause (DIMACS literals) at the top level; may make the formula UNSAT.

        Duplicate literals are merged, tautologies dropped, literals false at the top
        level removed (the shortened clause is logged as a lemma), satisfied clauses
        skipped. A unit is assigned and propagated at once.
        """
        self.add_clauses((lits,))

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """`add_clause` for many clauses (the loop that loads a formula)."""
        with gc_paused():
            self._add_clauses(clauses)

    def _add_clauses(self, clauses: Iterable[list[int]]) -> None:
        if self.trail_lim:
            self.cancel_until(0)
        val = self.val
        proof = self.proof
        store = self.clauses.append
        attach = self._attach
        bins = self.bins
        nvars = self.nvars
        for lits in clauses:
            if not self.ok:
                return
            if len(lits) == 2:  # the common case, without the general path's sorting
                a, b = lits
                a = a + a if a > 0 else 1 - a - a
                b = b + b if b > 0 else 1 - b - b
                if (
                    a >> 1 != b >> 1
                    and a >> 1 <= nvars
                    and b >> 1 <= nvars
                    and val[a] == 0
                    and val[b] == 0
                ):
                    ba = bins[a]
                    if ba is None:
                        bins[a] = [b]
                    else:
                        ba.append(b)
                    bb = bins[b]
                    if bb is None:
                        bins[b] = [a]
                    else:
                        bb.append(a)
                    continue
            elif len(lits) == 3:  # random 3-SAT's case: sorted by hand, attached in place
                a, b, c = lits
                a = a + a if a > 0 else 1 - a - a
                b = b + b if b > 0 else 1 - b - b
                c = c + c if c > 0 else 1 - c - c
                if a > b:
                    a, b = b, a
                if b > c:
                    b, c = c, b
                    if a > b:
                        a, b = b, a
                if (
                    a >> 1 != b >> 1 != c >> 1
                    and c >> 1 <= nvars
                    and val[a] == 0
                    and val[b] == 0
                    and val[c] == 0
                ):
                    kept = [a, b, c]
                    store(kept)
                    attach(kept)
                    continue
            codes = [l + l if l > 0 else 1 - l - l for l in lits]
            if not codes:
                self._set_unsat()
                return
            if len(codes) > 1:
                codes = sorted(set(codes))
            if codes[-1] >> 1 > nvars:
                self.ensure_vars(codes[-1] >> 1)
                nvars = self.nvars
                val = self.val
                bins = self.bins
            kept = []
            prev = -1
            for c in codes:
                vc = val[c]
                if vc == 1 or c ^ 1 == prev:
                    break  # satisfied at the top level, or a tautology
                if vc == 0:
                    kept.append(c)
                prev = c
            else:
                if proof is not None and 0 < len(kept) < len(codes):
                    proof.add(_to_dimacs(kept))  # (an empty one is logged by _set_unsat)
                n = len(kept)
                if n == 2:
                    a, b = kept
                    if bins[a] is None:
                        bins[a] = [b]
                    else:
                        bins[a].append(b)
                    if bins[b] is None:
                        bins[b] = [a]
                    else:
                        bins[b].append(a)
                elif n > 2:
                    if n >= HUGE:
                        kept = _Huge(kept)
                    store(kept)
                    attach(kept)
                elif n == 1:
                    self._enqueue(kept[0], None)
                    if self.propagate() is not None:
                        self._set_unsat()
                else:
                    self._set_unsat()

    def _set_unsat(self) -> None:
        """Record that the formula is UNSAT and log the empty clause."""
        if self.ok and self.proof is not None:
            self.proof.add([])
        self.ok = False

    def _attach(self, c: list[int]) -> None:
        watches = self.huge_watches if c.__class__ is _Huge else self.watches
        for lit in c:  # every literal of a long clause may become a watch later
            if watches[lit] is None:
                watches[lit] = []
        watches[c[0]].append((c[1], c))
        watches[c[1]].append((c[0], c))

    def _attach_binary(self, a: int, b: int) -> None:
        bins = self.bins
        if bins[a] is None:
            bins[a] = [b]
        else:
            bins[a].append(b)
        if bins[b] is None:
            bins[b] = [a]
        else:
            bins[b].append(a)

    def _enqueue(self, lit: int, why: object) -> None:
        v = lit >> 1
        self.val[lit] = 1
        self.val[lit ^ 1] = -1
        self.level[v] = len(self.trail_lim)
        self.reason[v] = why
        self.trail.append(lit)

    # ------------------------------------------------------------- propagation

    def propagate(self) -> list[int] | None:
        """Unit-propagate every literal on the trail from ``qhead``.

        Pre: the watch invariant holds for every clause (its two watches, ``c[0]`` and
        ``c[1]``, are not false unless the clause is satisfied or was unit when its last
        watch was assigned). Post: either ``qhead == len(trail)`` and no clause is
        conflicting or unit, and None is returned; or a conflicting clause (all literals
        false, as a list of codes) is returned. Implied literals get the clause as reason
        (implied literal moved to ``c[0]``) or, for binary clauses, the other literal.
        """
        trail = self.trail
        val = self.val
        level = self.level
        reason = self.reason
        watches = self.watches
        huge = self.huge_watches
        bins = self.bins
        dl = len(self.trail_lim)
        qhead = start = self.qhead
        confl = None
        stop = self.stop_check
        poll = _NEVER if stop is None else start + _POLL_PROPAGATIONS
        while qhead < len(trail):
            if qhead >= poll:
                if stop():
                    self.stopped = True  # unfinished: the caller must give up, not decide
                    break
                poll += _POLL_PROPAGATIONS
            fl = trail[qhead] ^ 1  # the literal that just became false
            qhead += 1
            bl = bins[fl]
            if bl:
                for o in bl:
                    vo = val[o]
                    if vo == 0:
                        val[o] = 1
                        val[o ^ 1] = -1
                        level[o >> 1] = dl
                        reason[o >> 1] = fl
                        trail.append(o)
                    elif vo < 0:
                        confl = [o, fl]
                        break
                if confl is not None:
                    break
            if huge[fl]:
                confl = self._propagate_huge(fl, dl)
                if confl is not None:
                    break
            ws = watches[fl]
            if not ws:
                continue
            j = 0
            it = iter(ws)
            for w in it:
                b, c = w
                if val[b] == 1:
                    ws[j] = w
                    j += 1
                    continue
                first = c[0]
                if first == fl:
                    first = c[1]
                    c[0] = first
                    c[1] = fl
                if val[first] == 1:
                    ws[j] = (first, c)
                    j += 1
                    continue
                k = 2
                n = len(c)
                while k < n:
                    lk = c[k]
                    if val[lk] != -1:
                        c[1] = lk
                        c[k] = fl
                        watches[lk].append((first, c))
                        break
                    k += 1
                else:
                    ws[j] = w
                    j += 1
                    if val[first] == 0:
                        val[first] = 1
                        val[first ^ 1] = -1
                        level[first >> 1] = dl
                        reason[first >> 1] = c
                        trail.append(first)
                    else:
                        confl = c
                        break
            if confl is not None:
                # keep the watchers not yet visited
                ws[j:] = list(it)
                break
            del ws[j:]
        self.n_propagations += qhead - start
        self.qhead = qhead
        return confl

    def _propagate_huge(self, fl: int, dl: int) -> list[int] | None:
        """`propagate`'s step for the clauses of `HUGE` literals or more watching ``fl``,
        which just became false: the same watch moves, but the look for a new watch
        starts where the clause's last one ended and wraps around. Returns a conflicting
        clause or None."""
        val = self.val
        huge = self.huge_watches
        ws = huge[fl]
        j = 0
        it = iter(ws)
        for w in it:
            b, c = w
            if val[b] == 1:
                ws[j] = w
                j += 1
                continue
            first = c[0]
            if first == fl:
                first = c[1]
                c[0] = first
                c[1] = fl
            if val[first] == 1:
                ws[j] = (first, c)
                j += 1
                continue
            start = c.pos  # from where the last look ended, round to it again
            for found in chain(range(start, len(c)), range(2, start)):
                if val[c[found]] != -1:
                    break
            else:
                found = -1
            if found >= 0:
                lk = c[found]
                c[1] = lk
                c[found] = fl
                c.pos = found
                if huge[lk] is None:
                    huge[lk] = []
                huge[lk].append((first, c))
                continue
            ws[j] = w
            j += 1
            if val[first] == 0:
                val[first] = 1
                val[first ^ 1] = -1
                self.level[first >> 1] = dl
                self.reason[first >> 1] = c
                self.trail.append(first)
            else:
                ws[j:] = list(it)  # keep the watchers not yet visited
                return c
        del ws[j:]
        return None

    # ---------------------------------------------------------------- analysis

    def analyze(self, confl: list[int]) -> tuple[list[int], int]:
        """Derive the 1UIP clause from a conflicting clause.

        Pre: ``confl`` is false and has a literal at the current level > 0. Post: returns
        ``(learnt, backjump_level)`` where ``learnt[0]`` is the asserting literal (the
        negated UIP) and, if the clause has more literals, ``learnt[1]`` is one at
        ``backjump_level``, the highest level among ``learnt[1:]``. Involved variables are
        bumped; the clause is minimised (MiniSat's recursive minimisation).
        """
        seen = self.seen
        level = self.level
        reason = self.reason
        trail = self.trail
        act = self.act
        inheap = self.inheap
        inc = self.var_inc
        dl = len(self.trail_lim)
        learnt = [0]
        path = 0
        index = len(trail) - 1
        v = 0  # variable 0 is unused, so seen[0] stays 0
        lits = confl
        while True:
            # v (whose reason is lits) stays marked so that its own literal lits[0] is skipped
            for q in lits:
                w = q >> 1
                if not seen[w] and level[w] > 0:
                    seen[w] = 1
                    a = act[w] + inc
                    act[w] = a
                    if a > _RESCALE:
                        self._rescale()
                        inc = self.var_inc
                    inheap[w] = False  # entry stale: pushed again when w is unassigned
                    if level[w] >= dl:
                        path += 1
                    else:
                        learnt.append(q)
            seen[v] = 0
            # the next marked literal on the trail, walking back
            while not seen[trail[index] >> 1]:
                index -= 1
            p = trail[index]
            index -= 1
            v = p >> 1
            path -= 1
            if path == 0:
                break
            r = reason[v]
            lits = (r,) if r.__class__ is int else r
        seen[v] = 0
        learnt[0] = p ^ 1

        # minimisation: drop literals implied by the others (recursively)
        n = len(learnt)
        if n > 1:
            abstract = 0
            for i in range(1, n):
                abstract |= 1 << (level[learnt[i] >> 1] & 31)
            toclear = learnt[1:]
            j = 1
            for i in range(1, n):
                q = learnt[i]
                if reason[q >> 1] is None or not self._lit_redundant(q, abstract, toclear):
                    learnt[j] = q
                    j += 1
            del learnt[j:]
            for q in toclear:
                seen[q >> 1] = 0

        if self.reason_bump:
            self._bump_reason_side(learnt)

        # backjump level: the highest level among learnt[1:], moved to position 1
        if len(learnt) == 1:
            return learnt, 0
        best = 1
        bt = level[learnt[1] >> 1]
        for i in range(2, len(learnt)):
            lv = level[learnt[i] >> 1]
            if lv > bt:
                bt = lv
                best = i
        learnt[1], learnt[best] = learnt[best], learnt[1]
        return learnt, bt

    def _bump_reason_side(self, learnt: list[int]) -> None:
        """Reason-side bumping (J. H. Liang, V. Ganesh, P. Poupart, K. Czarnecki, "Learning
        Rate Based Branching Heuristic for SAT Solvers", SAT 2016, and "An Empirical Study
        of Branching Heuristics through the Lens of Global Learning Rate", SAT 2017): the
        variables of the reasons of the learnt clause's literals, not in the clause, get
        ``reason_bump`` of a bump too."""
        seen = self.seen
        level = self.level
        reason = self.reason
        for q in learnt:
            seen[q >> 1] = 1
        marked: list[int] = []
        mark = marked.append
        for q in learnt:
            r = reason[q >> 1]
            if r is None:
                continue
            for x in (r,) if r.__class__ is int else r:  # (a clause's x = q^1 is marked)
                w = x >> 1
                if not seen[w] and level[w] > 0:
                    seen[w] = 1
                    mark(w)
        for q in learnt:
            seen[q >> 1] = 0
        act = self.act
        inheap = self.inheap
        inc = self.var_inc * self.reason_bump
        top = 0.0  # the largest activity reached
        for w in marked:
            seen[w] = 0
            a = act[w] = act[w] + inc
            inheap[w] = False  # entry stale: pushed again when w is unassigned
            if a > top:
                top = a
        if top > _RESCALE:
            self._rescale()

    def _lit_redundant(self, p: int, abstract: int, toclear: list[int]) -> bool:
        """True if false literal ``p`` (in the learnt clause) is implied by the others.

        A depth-first walk over reasons. ``seen`` marks a variable 1 when it is in the
        clause or proven implied by it, 2 when proven not to be; both verdicts are kept
        (and the variables added to ``toclear``) for the rest of this analysis, so each
        variable is explored at most once per conflict — without the failure marks,
        long implication chains (a maze's counters) are walked again for every literal.
        """
        seen = self.seen
        level = self.level
        reason = self.reason
        stack = []  # suspended frames: (literal, its reason's literals, next index)
        r = reason[p >> 1]
        lits = (r,) if r.__class__ is int else r
        i = 0 if r.__class__ is int else 1  # a long reason's c[0] is the implied literal
        while True:
            if i < len(lits):
                q = lits[i]
                i += 1
                v = q >> 1
                s = seen[v]
                if s == 1 or level[v] == 0:
                    continue
                rq = reason[v]
                if s == 2 or rq is None or not (1 << (level[v] & 31)) & abstract:
                    # p is not redundant, nor is any literal on the current path
                    if stack:
                        stack.append((p, lits, i))
                        for fq, _, _ in stack[1:]:
                            seen[fq >> 1] = 2
                            toclear.append(fq)
                    return False
                stack.append((p, lits, i))
                p = q
                lits = (rq,) if rq.__class__ is int else rq
                i = 0 if rq.__class__ is int else 1
            else:
                if not stack:
                    return True  # the root: it stays marked as a clause literal
                seen[p >> 1] = 1
                toclear.append(p)
                p, lits, i = stack.pop()

    def _rescale(self) -> None:
        """Scale all activities down (they grow geometrically) and rebuild the heap."""
        act = self.act
        for v in range(1, self.nvars + 1):
            act[v] *= 1e-100
        self.var_inc *= 1e-100
        self._rebuild_heap()

    def _rebuild_heap(self) -> None:
        """A fresh heap holding exactly the unassigned variables of positive activity."""
        val = self.val
        act = self.act
        inheap = self.inheap
        heap = []
        for v in range(1, self.nvars + 1):
            a = act[v]
            if a == 0.0:
                inheap[v] = True  # found by the cursor: nothing to push when unassigned
            else:
                listed = val[2 * v] == 0
                inheap[v] = listed
                if listed:
                    heap.append((-a, v))
        heapify(heap)
        self.heap = heap
        self.cursor = 1

    def analyze_final(self, p: int) -> list[int]:
        """The assumptions responsible for assumption ``p`` being false (MiniSat's
        ``analyzeFinal``), as literal codes, ``p`` included."""
        core = [p]
        if not self.trail_lim:
            return core
        seen = self.seen
        level = self.level
        reason = self.reason
        trail = self.trail
        seen[p >> 1] = 1
        for k in range(len(trail) - 1, self.trail_lim[0] - 1, -1):
            x = trail[k]
            v = x >> 1
            if seen[v]:
                r = reason[v]
                if r is None:
                    core.append(x)
                elif r.__class__ is int:
                    if level[r >> 1] > 0:
                        seen[r >> 1] = 1
                else:
                    for q in r:
                        if level[q >> 1] > 0:
                            seen[q >> 1] = 1
                seen[v] = 0
        seen[p >> 1] = 0
        return core

    # ------------------------------------------------------------ backtracking

    def cancel_until(self, lvl: int) -> None:
        """Undo every assignment above decision level ``lvl`` (saving phases).

        Post: ``len(trail_lim) == lvl`` and ``qhead == len(trail)``; unassigned variables
        are back in the decision heap (positive activity) or below ``cursor`` (zero).
        """
        trail_lim = self.trail_lim
        if len(trail_lim) <= lvl:
            return
        trail = self.trail
        lim = trail_lim[lvl]
        val = self.val
        phase = self.phase
        inheap = self.inheap
        act = self.act
        heap = self.heap
        undone = trail[lim:]
        for lit in undone:
            val[lit] = 0
            val[lit ^ 1] = 0
            v = lit >> 1
            phase[v] = lit & 1
            if not inheap[v]:
                inheap[v] = True
                heappush(heap, (-act[v], v))
        if undone:
            # may land on a variable of the heap: harmless, the cursor is only asked
            # once every listed variable is assigned
            rank = self.rank
            if rank is None:
                self.cursor = min(self.cursor, min(undone) >> 1)
            else:
                self.cursor = min(self.cursor, min(map(rank.__getitem__, undone)))
        del trail[lim:]
        del trail_lim[lvl:]
        self.qhead = lim

    def pick_branch_lit(self) -> int:
        """The unassigned variable of highest activity with its `set_phases` (else target,
        else saved) phase, as a literal code; -1 when every variable is assigned.

        Ties go to the lowest-numbered variable. Variables never bumped (activity 0, most
        of a big formula) stay out of the heap: once every listed one is assigned, the
        first free variable in ``order`` (by number, or by occurrences after
        `start_from_occurrences`) is found by ``cursor`` (so backjumps over thousands of
        propagated literals do not push and pop each of them).
        """
        heap = self.heap
        if len(heap) > 4 * self.nvars + 1000:
            self._rebuild_heap()
            heap = self.heap
        act = self.act
        val = self.val
        inheap = self.inheap
        while heap:
            a, v = heappop(heap)
            if -a != act[v]:
                continue  # stale entry: a fresher one exists or the variable is assigned
            inheap[v] = False
            if val[2 * v] == 0:
                break
        else:
            p = self.cursor
            nvars = self.nvars
            order = self.order
            if order is None:
                while p <= nvars and val[2 * p] != 0:
                    p += 1
            else:
                while p <= nvars and val[2 * order[p]] != 0:
                    p += 1
            self.cursor = p + 1
            if p > nvars:
                return -1
            v = p if order is None else order[p]
        # set_phases's polarity, else the target phase, else the saved phase
        u = self.user_phase[v]
        if u >= 0:
            return 2 * v | u
        t = self.target[v]
        return 2 * v | (t if t >= 0 else self.phase[v])

    # --------------------------------------------------------------- learning

    def _learn(self, learnt: list[int]) -> None:
        """Record a learnt clause (after backjumping) and assign its asserting literal."""
        self.n_learned += 1
        if self.proof is not None:
            self.proof.add(_to_dimacs(learnt))
        n = len(learnt)
        if n == 1:
            self._enqueue(learnt[0], None)
            return
        # LBD: number of distinct decision levels, with a stamp per level
        self.stamp += 1
        stamp = self.stamp
        level = self.level
        level_stamp = self.level_stamp
        lbd = 0
        for q in learnt:
            lv = level[q >> 1]
            if level_stamp[lv] != stamp:
                level_stamp[lv] = stamp
                lbd += 1
        if self.restart_policy == "glucose":
            if self.lbd_slow == 0.0:
                self.lbd_fast = self.lbd_slow = float(lbd)
            self.lbd_fast += (lbd - self.lbd_fast) * (1 / 32)
            self.lbd_slow += (lbd - self.lbd_slow) * (1 / 8192)
        if n == 2:
            self._attach_binary(learnt[0], learnt[1])
            self._enqueue(learnt[0], learnt[1])
        else:
            # (learnt clauses stay on the short path, however long: on the 1,000-node
            # maze, hundreds of them reach 256+ literals, and the circular search's other
            # watch choices doubled its conflicts, 892 -> 1,505)
            self.learnts.append(learnt)
            self.lbds.append(lbd)
            self._attach(learnt)
            self._enqueue(learnt[0], learnt)

    def reduce_db(self) -> None:
        """Delete about half of the learnt long clauses, worst LBD first.

        Clauses with LBD <= 2 and clauses that are the reason of a current assignment
        are kept. Among equal LBDs the older clause goes first.
        """
        learnts = self.learnts
        lbds = self.lbds
        reason = self.reason
        val = self.val
        order = sorted(range(len(learnts)), key=lambda i: (-lbds[i], i))
        limit = len(learnts) // 2
        dead = set()
        removed = 0
        for i in order:
            if removed >= limit:
                break
            c = learnts[i]
            if lbds[i] <= 2:
                break
            first = c[0]
            if val[first] == 1 and reason[first >> 1] is c:
                continue
            dead.add(i)
            removed += 1
        if not dead:
            return
        proof = self.proof
        keep_c = []
        keep_l = []
        for i, c in enumerate(learnts):
            if i in dead:
                if proof is not None:
                    proof.delete(_to_dimacs(c))
            else:
                keep_c.append(c)
                keep_l.append(lbds[i])
        self.learnts = keep_c
        self.lbds = keep_l
        self._rebuild_watches()

    def _rebuild_watches(self) -> None:
        """Watch lists rebuilt from the live long clauses (after deletions)."""
        for lists in (self.watches, self.huge_watches):
            for ws in lists:
                if ws:
                    ws.clear()
        watches = self.watches
        huge = self.huge_watches
        for group in (self.clauses, self.learnts):
            for c in group:
                ws = huge if c.__class__ is _Huge else watches
                ws[c[0]].append((c[1], c))
                ws[c[1]].append((c[0], c))

    def simplify(self) -> None:
        """At level 0: delete clauses satisfied by top-level facts (MiniSat's simplify).

        Rationed as MiniSat rations it (``simpDB_props``): after a simplification, the
        next waits until the search has propagated as many literals as the clauses hold,
        so that its cost (a pass over every clause and a rebuild of every watch list) stays
        a share of the search's. Run at each new top-level fact, it took 46% of
        logistics.a's solve time (15 runs, 28.5 of 62 ms).
        """
        if len(self.trail) == self.simp_assigns or self.n_propagations < self.simp_props:
            return
        self.simp_assigns = len(self.trail)
        val = self.val
        reason = self.reason
        proof = self.proof
        if proof is not None:
            # top-level facts as unit lemmas, so that deleting their reasons is safe (one
            # with no reason is a unit clause already: the formula's, or logged by `_learn`)
            for lit in self.trail[self.proof_units :]:
                if reason[lit >> 1] is not None:
                    proof.add(_to_dimacs([lit]))
            self.proof_units = len(self.trail)

        def live(c: list[int]) -> bool:
            for q in c:
                if val[q] == 1:
                    if reason[c[0] >> 1] is c and val[c[0]] == 1:
                        return True  # a reason: keep
                    if proof is not None:
                        proof.delete(_to_dimacs(c))
                    return False
            return True

        before = len(self.clauses) + len(self.learnts)
        self.clauses = [c for c in self.clauses if live(c)]
        kept = [(c, lbd) for c, lbd in zip(self.learnts, self.lbds, strict=True) if live(c)]
        self.learnts = [c for c, _ in kept]
        self.lbds = [lbd for _, lbd in kept]
        if len(self.clauses) + len(self.learnts) < before:
            self._rebuild_watches()
        size = sum(map(len, self.clauses)) + sum(map(len, self.learnts))
        self.simp_props = self.n_propagations + size

    # ------------------------------------------------------------------ search

    def solve(self, assumptions: list[int], limits: Limits) -> bool | None:
        """Search under ``assumptions`` (DIMACS literals) until SAT, UNSAT or a limit.

        Returns True (the model is in `model`), False (UNSAT under the assumptions; the
        responsible assumptions are in `core`) or None (a limit or interrupt stopped it).
        The engine is back at level 0 afterwards and can be used again.
        """
        self._model = []
        self._core = []
        if not self.ok:
            return False
        top = max((abs(l) for l in assumptions), default=0)
        if top > self.nvars:
            self.ensure_vars(top)
        if self.start_pending:
            self.start_pending = False
            self.start_from_occurrences()
        assume = [2 * l if l > 0 else -2 * l + 1 for l in assumptions]
        # repeated or already-true assumptions open empty levels: more levels than variables
        missing = self.nvars + len(assume) + 1 - len(self.level_stamp)
        if missing > 0:
            self.level_stamp.extend([0] * missing)
        max_conflicts = None if limits.conflicts is None else self.n_conflicts + limits.conflicts
        max_props = (
            None if limits.propagations is None else self.n_propagations + limits.propagations
        )
        status = None
        curr_restarts = 0
        limited = (max_conflicts, max_props, limits.deadline, limits.interrupt) != (None,) * 4
        if limited:
            self.stop_check = lambda: self._out_of_budget(max_conflicts, max_props, limits)
        with gc_paused():  # the search makes no cyclic garbage (see `gc_paused`)
            if self.lucky_pending:
                # once only, even when a limit stops it: retried by each later call, a run
                # of solve_limited calls with small budgets would never get past it
                self.lucky_pending = False
                if not assume and not self.preferred and max(self.user_phase) < 0:
                    status = self._try_lucky()
            while status is None and not self.stopped:
                if self.restart_policy == "luby":
                    budget = int(luby(2, curr_restarts) * self.luby_unit)
                else:
                    budget = -1
                status = self._search(budget, assume, max_conflicts, max_props, limits)
                if status is None:
                    if self._out_of_budget(max_conflicts, max_props, limits):
                        break
                    curr_restarts += 1
                    self.n_restarts += 1
                    if (
                        self.walk
                        and self.n_conflicts >= self.walk_min_conflicts
                        and self.walk_fails < self.walk_patience
                    ):
                        self.rephase_walk(
                            lambda: self._out_of_budget(max_conflicts, max_props, limits)
                        )
            # still paused: undoing a million assignments pushes a million heap entries,
            # and with the collector on they set off full collections over the whole
            # solver (seconds each on a 100 MB formula), after the limit has fallen
            if status is True:
                val = self.val
                self._model = [v if val[2 * v] == 1 else -v for v in range(1, self.nvars + 1)]
            elif status is False and self._core:
                order = {lit: i for i, lit in reversed(list(enumerate(assumptions)))}
                self._core = sorted(set(self._core), key=order.__getitem__)
            self.stop_check = None
            self.stopped = False
            self.cancel_until(0)
        return status

    def _try_lucky(self) -> bool | None:
        """`dpll.lucky` after propagating what is left at level 0: True when it found a
        model (on the trail), False when level 0 conflicts (UNSAT), else None; a limit
        that stopped it leaves ``stopped`` set, for `solve` to give up."""
        if self.propagate() is not None:
            self._set_unsat()
            return False
        return True if not self.stopped and lucky(self) else None

    def start_from_occurrences(self) -> None:
        """Start VSIDS from the clauses (Chaff's initial scores): until conflicts say
        otherwise, decide the variables that occur most first, each with its more
        frequent polarity as its saved phase (unless both are equally frequent, or
        `prefer_phases` chose it).

        Without a seed the order is a list the decision cursor walks, ties by number,
        so no variable enters the heap before it is bumped; with a seed, whose random
        activities already put every variable in the heap, each activity grows by a
        thousandth of a bump per occurrence instead.

        On random 3-SAT this cuts conflicts by about a third (uuf100, uuf150, 8 seeds);
        on planning formulas whose numbering follows time, such as mazes, the numbering
        is the better start (see `maze.pipeline.DPLL_OPTIONS`, and bench/README.md).
        """
        nvars = self.nvars
        size = 2 * nvars + 2
        counts = [len(b) if b else 0 for b in self.bins]  # binary clauses, by literal code
        for c in self.clauses:  # (a plain loop: counting into a dict was 3.6x slower)
            for q in c:
                counts[q] += 1
        positive = counts[2::2]  # by variable - 1
        negative = counts[3::2]
        kept = {v: self.phase[v] for v in self.preferred}
        self.phase[1:] = [
            ph if p == q else (0 if p > q else 1)
            for ph, p, q in zip(self.phase[1:], positive, negative, strict=True)
        ]
        for v, ph in kept.items():
            self.phase[v] = ph
        occurrences = [0, *map(add, positive, negative)]  # by variable
        if self.rng is None:
            order = [0, *sorted(range(1, nvars + 1), key=occurrences.__getitem__, reverse=True)]
            rank = [0] * size
            for position in range(1, nvars + 1):
                v = order[position]
                rank[2 * v] = rank[2 * v + 1] = position
            self.order = order
            self.rank = rank
            self.cursor = 1
        else:
            act = self.act
            act[:] = [a + n * 1e-3 for a, n in zip(act, occurrences, strict=True)]
            self._rebuild_heap()

    def _out_of_budget(
        self, max_conflicts: int | None, max_props: int | None, limits: Limits
    ) -> bool:
        if limits.interrupt is not None and limits.interrupt[0]:
            return True
        if max_conflicts is not None and self.n_conflicts >= max_conflicts:
            return True
        if max_props is not None and self.n_propagations >= max_props:
            return True
        return limits.deadline is not None and time.monotonic() >= limits.deadline

    def _search(
        self,
        budget: int,
        assume: list[int],
        max_conflicts: int | None,
        max_props: int | None,
        limits: Limits,
    ) -> bool | None:
        """Search until a model, UNSAT, a restart (None) or a limit (None).

        ``budget`` is the number of conflicts before a restart (-1: glucose rule).
        """
        trail_lim = self.trail_lim
        val = self.val
        propagate = self.propagate
        analyze = self.analyze
        out_of_budget = self._out_of_budget
        glucose = budget < 0
        conflicts_here = 0
        quiet_decisions = 0
        while True:
            confl = propagate()
            if self.stopped:
                self.stopped = False
                return None
            if confl is not None:
                self.n_conflicts += 1
                conflicts_here += 1
                if not trail_lim:
                    self._set_unsat()
                    return False
                if self.use_target and trail_lim[-1] > self.target_len:
                    self._save_target(trail_lim[-1])
                learnt, bt = analyze(confl)
                self.cancel_until(bt)
                self._learn(learnt)
                self.var_inc *= self.var_decay_inv
                if out_of_budget(max_conflicts, max_props, limits):
                    return None
                continue

            if glucose:
                if conflicts_here >= 50 and self.lbd_fast * 0.8 > self.lbd_slow:
                    self.cancel_until(0)
                    return None
            elif conflicts_here >= budget:
                self.cancel_until(0)
                return None
            quiet_decisions += 1
            if quiet_decisions > _POLL_DECISIONS:
                quiet_decisions = 0
                if out_of_budget(max_conflicts, max_props, limits):
                    return None
            if not trail_lim:
                self.simplify()
            if self.n_conflicts >= self.next_reduce:
                self.reduce_count += 1
                self.next_reduce = (
                    self.n_conflicts + self.first_reduce + self.reduce_inc * self.reduce_count
                )
                self.reduce_db()

            nxt = -1
            while len(trail_lim) < len(assume):
                p = assume[len(trail_lim)]
                vp = val[p]
                if vp == 1:
                    trail_lim.append(len(self.trail))  # already true: an empty level
                elif vp == -1:
                    self._core = _to_dimacs(self.analyze_final(p))
                    return False
                else:
                    nxt = p
                    break
            if nxt < 0:
                nxt = self.pick_branch_lit()
                if nxt < 0:
                    return True
                self.n_decisions += 1
            trail_lim.append(len(self.trail))
            self._enqueue(nxt, None)

    def rephase_walk(self, stop: Callable[[], bool] | None = None) -> None:
        """At level 0: run probSAT from the current phases; its best assignment becomes
        the target and saved phases (see `dpll.walk`).

        The flip budget is ``walk_effort`` times the propagations since the last walk
        (a flip costs about two thirds of a propagated literal's share of the search).
        Over seeds 0-7, 0.3 instead of 0.1 takes uf250 from 6.2 to 3.5 s and uf150 from
        0.59 to 0.49 s, and costs short unsatisfiable runs about 10% (uuf150 1.97 to
        2.16 s); 1.0 gives uf250 2.1 s but uuf150 2.9 s. After ``walk_patience`` walks in a row
        that do not get closer to a model than the best so far, walking stops: on
        unsatisfiable formulas it plateaus at once. The first walks are short, so a
        satisfiable formula may take several before one beats the best: giving up after
        two left uf250 (8 seeds) at a median of 120k conflicts, ten gets 40k.
        """
        val = self.val
        clauses = []
        for c in self.clauses:  # original clauses only: learnt ones are implied
            for lit in c:
                if val[lit] == 1:
                    break
            else:
                clauses.append([lit for lit in c if val[lit] == 0])
        bins = self.bins
        for a in range(2, 2 * self.nvars + 2):
            others = bins[a]
            if others and val[a] == 0:
                for b in others:
                    if a < b and val[b] == 0:
                        clauses.append([a, b])
        flips = max(1000, int(self.walk_effort * (self.n_propagations - self.walk_props)))
        self.walk_props = self.n_propagations
        self.n_walks += 1
        if not clauses:
            return
        target = self.target
        phase = self.phase
        start = [t if t >= 0 else p for t, p in zip(target, phase, strict=True)]
        best, unsat = probsat(clauses, start, self.walk_rng, flips, stop)
        self.n_flips += flips
        if unsat < self.walk_best:
            self.walk_best = unsat
            self.walk_fails = 0
        else:
            self.walk_fails += 1
        for v in range(1, self.nvars + 1):
            if val[2 * v] == 0:
                target[v] = phase[v] = best[v]
        self.target_len = 0  # the target now holds the walk's proposal, not a trail

    def _save_target(self, size: int) -> None:
        """Remember the values of ``trail[:size]`` (conflict-free) as target phases."""
        self.target_len = size
        target = self.target
        for lit in self.trail[:size]:
            target[lit >> 1] = lit & 1

    # --------------------------------------------------- PySAT's extra calls

    def set_phases(self, lits: list[int]) -> None:
        """Decide these polarities whenever their variables are branched on (DIMACS
        literals): hard, as in MiniSat-GH and CaDiCaL (``user_pol``, ``phase``), which
        algorithms such as PySAT's Hitman rely on; saved and target phases do not
        override them. A later call may change them."""
        top = max((abs(lit) for lit in lits), default=0)
        if top > self.nvars:
            self.ensure_vars(top)
        for lit in lits:
            self.user_phase[abs(lit)] = 0 if lit > 0 else 1

    def prefer_phases(self, lits: list[int]) -> None:
        """Decide these polarities next time their variables are branched on (DIMACS
        literals), as saved phases: phase saving and target phases may change them later
        (a soft `set_phases`, as PySAT's Minisat22's)."""
        top = max((abs(lit) for lit in lits), default=0)
        if top > self.nvars:
            self.ensure_vars(top)
        for lit in lits:
            v = abs(lit)
            self.phase[v] = 0 if lit > 0 else 1
            self.target[v] = -1
            self.preferred.add(v)

    def given_phases(self) -> tuple[list[int], list[int]]:
        """The phases `set_phases` and `prefer_phases` gave that still hold, as DIMACS
        literals: ``(hard, soft)`` (a soft one as the saved phase now says)."""
        hard = [v if u == 0 else -v for v, u in enumerate(self.user_phase) if v and u >= 0]
        soft = [v if self.phase[v] == 0 else -v for v in sorted(self.preferred)]
        return hard, soft

    def propagate_assumptions(
        self, assumptions: list[int], phase_saving: int = 0
    ) -> tuple[bool, list[int]]:
        """Unit-propagate the assumptions one by one, each on its own level, as MiniSat's
        ``prop_check`` (PySAT's ``propagate``): False if one is false or a conflict arises.

        Returns the status and the literals assigned above the top level (assumptions and
        their implications, in trail order; after a conflict, a literal of the conflicting
        clause last). The engine is back at the top level afterwards; with
        ``phase_saving`` 0 the saved phases are left as they were.
        """
        if not self.ok:
            return False, []
        self.cancel_until(0)
        if self.propagate() is not None:
            self._set_unsat()
            return False, []
        top = max((abs(lit) for lit in assumptions), default=0)
        if top > self.nvars:
            self.ensure_vars(top)
        saved = self.phase[:] if phase_saving == 0 else None
        start = len(self.trail)
        status = True
        extra: list[int] = []
        for lit in assumptions:
            code = 2 * lit if lit > 0 else -2 * lit + 1
            value = self.val[code]
            if value == -1:
                status = False
                break
            if value == 0:
                self.trail_lim.append(len(self.trail))
                self._enqueue(code, None)
                confl = self.propagate()
                if confl is not None:
                    status = False
                    extra = [confl[0]]
                    break
        assigned = _to_dimacs(self.trail[start:] + extra)
        self.cancel_until(0)
        if saved is not None:
            self.phase = saved
        return status, assigned

    def equivalent_clauses(self) -> list[list[int]]:
        """Between solves: the top-level facts as units, the binary clauses and the long
        original clauses (DIMACS). Clauses satisfied at the top level may be among them
        (simplification is rationed) and false literals are left in, so with the units
        this has exactly the models of the clauses added; learnt binaries are implied and
        may be among them."""
        if not self.ok:
            return [[]]
        top = self.trail[: self.trail_lim[0]] if self.trail_lim else self.trail
        clauses = [[lit] for lit in _to_dimacs(top)]
        bins = self.bins
        for a in range(2, 2 * self.nvars + 2):
            others = bins[a]
            if others:
                clauses.extend(_to_dimacs([a, b]) for b in others if a < b)
        clauses.extend(_to_dimacs(c) for c in self.clauses)
        return clauses

    # ----------------------------------------------------------------- results

    def model(self) -> list[int]:
        """After a True answer: every variable 1..nvars as a signed literal, in order."""
        return list(self._model)

    def core(self) -> list[int]:
        """After a False answer: the responsible assumptions (DIMACS), in assumption order."""
        return list(self._core)

    def stats(self) -> dict[str, int]:
        """Cumulative counters: decisions, propagations, conflicts, restarts, learned."""
        return {
            "decisions": self.n_decisions,
            "propagations": self.n_propagations,
            "conflicts": self.n_conflicts,
            "restarts": self.n_restarts,
            "learned": self.n_learned,
        }
