"""Branching heuristics of the classic DPLL (`random`, `two-clause`, `jw`, `dlis`).

Each heuristic is a function of the search state, bound once when the search
is built (``make_picker``), that returns the literal code to decide next. It
is called only when propagation is complete, no clause is false and some
clause is still unsatisfied, so a clause with two unassigned literals exists.
Only variables that occur in an unsatisfied clause are candidates: branching
on a variable the remaining formula no longer mentions would only double the
work below it.

* ``random`` — seed 003's "Random": a uniformly random candidate variable and
  a uniformly random polarity.
* ``two-clause`` — seed 003's "Two-Clause": the variable with the most
  occurrences (either sign) in the current 2-literal clauses (unsatisfied
  clauses with exactly two unassigned literals), ties broken uniformly at
  random, the polarity uniformly random; with no 2-literal clause left, the
  ``random`` choice.
* ``jw`` — two-sided Jeroslow–Wang as a static order: ``J(v) = Σ 2^-|C|``
  over the clauses ``C`` of the formula containing ``v`` or ``-v``; the first
  candidate in decreasing ``J`` (ties in seeded random order) is chosen, with
  the sign of the larger one-sided sum. Static rather than recomputed on the
  current clauses at every split, because that was measured to be better:
  on SATLIB's graph-colouring flat200 (ten files) the recomputed rule made
  about five times as many decisions (median 14,587 against 2,884) and paid a
  scan of every clause per decision (18 s median against 1.2 s), while on
  uf100/uuf100 the static order is also well ahead of SymPy's dpll2.
* ``dlis`` — dynamic largest individual sum: the literal occurring in the most
  unsatisfied clauses is made true (ties: the smallest literal code).

The seeded ``random.Random`` of the search makes every random choice, so the
same seed gives the same search.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import mul, not_
from typing import Any

WATCH_HEURISTICS = ("random", "two-clause", "jw", "dlis")
"""The heuristics the watched-literal search implements (``course`` has its own search)."""


SCANNING_HEURISTICS = frozenset(("two-clause", "dlis"))
"""The heuristics whose every decision scans the whole formula (the textbook rules): the
search polls its limits at each of their decisions, not every ``POLL_DECISIONS``, as 1,024
such decisions take minutes on a big formula (--timeout 10 ran 89 s to over 200 s at a
million variables; audit 19-A)."""


def make_picker(name: str, search: Any) -> Callable[[], int]:
    """The branching function for heuristic ``name`` over ``search``'s state."""
    if name == "random":
        return lambda: pick_random(search)
    if name == "two-clause":
        return lambda: pick_two_clause(search)
    if name == "jw":
        return lambda: pick_jw(search)
    if name == "dlis":
        return lambda: pick_dlis(search)
    raise ValueError(f"unknown heuristic {name!r}; valid: {', '.join(WATCH_HEURISTICS)}")


def start_cursor(name: str, s: Any) -> int:
    """The heuristic's cursor at the root of a solve (``s.cursor``, put back on backtracking).

    For ``jw`` it is a place in the static order. For ``random`` (and ``two-clause``, which
    falls back to it) it is how many variables of ``s.random_pool`` are still in play: the
    pool is made here of every variable some clause holds, in number order."""
    if name not in ("random", "two-clause"):
        return 0
    cnt = s.cnt
    s.random_pool = [v for v in range(1, s.nvars + 1) if cnt[v << 1] or cnt[(v << 1) | 1]]
    return len(s.random_pool)


def pick_random(s: Any) -> int:
    """A random variable among those in unsatisfied clauses, with a random sign.

    Draws from the first ``s.cursor`` variables of ``s.random_pool``, which hold every
    candidate: a draw that is no longer one is swapped to the end of that prefix and the
    prefix shortened, so the next draws skip it. Candidates only go as the search goes
    deeper, and backtracking puts the cursor back (``cursor_lim``), which brings back every
    variable taken out below that level at no cost. So no decision scans the variables (a
    scan per decision, or per backtrack, made a search on a million variables quadratic:
    audit 27-B #1, review 27-B #2). Rejected draws keep the choice uniform among the
    candidates."""
    val = s.val
    cnt = s.cnt
    rng = s.rng
    pool = s.random_pool
    k = s.cursor
    while True:  # (some candidate is left: a clause with two unassigned literals exists)
        i = rng.randrange(k)
        v = pool[i]
        code = v << 1
        if not val[code] and (cnt[code] or cnt[code | 1]):
            s.cursor = k
            return code | rng.getrandbits(1)
        k -= 1
        pool[i] = pool[k]
        pool[k] = v


def pick_two_clause(s: Any) -> int:
    """Most occurrences in current 2-literal clauses; random ties and sign."""
    val = s.val
    counts: dict[int, int] = {}
    get = counts.get
    for clause, sat in zip(s.clauses, s.sat, strict=True):
        if sat:
            continue
        free = [lit for lit in clause if not val[lit]]
        if len(free) == 2:
            a = free[0] >> 1
            b = free[1] >> 1
            counts[a] = get(a, 0) + 1
            counts[b] = get(b, 0) + 1
    if not counts:
        return pick_random(s)
    best = max(counts.values())
    ties = sorted(v for v, k in counts.items() if k == best)
    rng = s.rng
    v = ties[0] if len(ties) == 1 else rng.choice(ties)
    return (v << 1) | rng.getrandbits(1)


def jw_order(s: Any) -> list[int]:
    """Literal codes in two-sided Jeroslow–Wang order over the whole formula.

    ``J(l) = Σ 2^-|C|`` over the clauses ``C`` holding ``l`` (unit clauses
    included); variables by ``J(v) + J(-v)``, largest first, ties in seeded
    random order; each variable with the sign of the larger one-sided ``J``.
    """
    n = s.nvars
    score = [0.0] * (2 * n + 2)
    for clause in s.clauses:
        w = 2.0 ** -len(clause)
        for lit in clause:
            score[lit] += w
    for lit in s.units:
        score[lit] += 0.5
    both = [a + b for a, b in zip(score[::2], score[1::2], strict=True)]
    rng = s.rng
    tie = [rng.random() for _ in range(n + 1)]
    order = sorted(range(1, n + 1), key=tie.__getitem__)
    order.sort(key=both.__getitem__, reverse=True)  # stable: ties keep the random order
    return [v << 1 if score[v << 1] >= score[(v << 1) | 1] else (v << 1) | 1 for v in order]


def pick_jw(s: Any) -> int:
    """The first literal of the Jeroslow–Wang order whose variable is still undecided.

    The order is fixed per formula, so a cursor suffices: everything before it
    is assigned or no longer in any unsatisfied clause, and the search puts the
    cursor back when it backtracks (``cursor_lim``).
    """
    order = s.static_order
    if order is None:
        order = s.static_order = jw_order(s)
    val = s.val
    cnt = s.cnt
    pos = s.cursor
    lit = order[pos]
    while val[lit] or not (cnt[lit] or cnt[lit ^ 1]):
        pos += 1
        lit = order[pos]
    s.cursor = pos
    return lit


def pick_dlis(s: Any) -> int:
    """The unassigned literal in the most unsatisfied clauses (smallest code on ties)."""
    scores = list(map(mul, s.cnt, map(not_, s.val)))
    return scores.index(max(scores))
