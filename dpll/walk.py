"""probSAT local search, used by the CDCL engine to propose phases ("walk" rephasing).

CDCL is weak on satisfiable uniform random formulas and local search is strong on
exactly those (CaDiCaL and Kissat rephase with a walk for that reason). The walk
never decides anything: its best assignment becomes the phases the search branches
on, and the search itself still has to reach and check the model, so proofs are
unaffected.

probSAT (A. Balint, U. Schöning, "Choosing Probability Distributions for Stochastic
Local Search and the Role of Make versus Break", SAT 2012): pick an unsatisfied
clause at random, flip one of its variables with probability proportional to
``(eps + break)^-cb``, where ``break`` counts the clauses the flip would leave with
no true literal. Non-caching break computation (the paper's choice for 3-SAT).

Literals are the engine's codes (``2*v + sign``); an assignment is a list of signs by
variable: literal ``l`` is true when ``assign[l >> 1] == l & 1``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

_CB = 2.06  # probSAT's polynomial break exponent for 3-SAT
_EPS = 0.9
_WEIGHTS = [(_EPS + b) ** -_CB for b in range(64)]
_POLL = 1024  # flips between calls of the stop check


def probsat(
    clauses: list[list[int]],
    assign: list[int],
    rng: random.Random,
    max_flips: int,
    stop: Callable[[], bool] | None = None,
) -> tuple[list[int], int]:
    """Walk from ``assign`` for at most ``max_flips`` flips (or until ``stop()``).

    ``clauses`` must each have at least one literal; ``assign`` (signs by variable,
    index 0 unused) is modified in place. Returns the best assignment seen (a copy)
    and its number of unsatisfied clauses (0: a model of ``clauses``).
    """
    nlits = 2 * len(assign)
    occ: list[list[int]] = [[] for _ in range(nlits)]
    ntrue = [0] * len(clauses)
    for i, clause in enumerate(clauses):
        for lit in clause:
            occ[lit].append(i)
            if assign[lit >> 1] == lit & 1:
                ntrue[i] += 1
    unsat = [i for i, n in enumerate(ntrue) if n == 0]
    where = [-1] * len(clauses)  # position in unsat, -1 when satisfied
    for k, i in enumerate(unsat):
        where[i] = k
    best = assign[:]
    best_unsat = len(unsat)
    weights = _WEIGHTS
    top = len(weights) - 1
    rand = rng.random
    for flip in range(max_flips):
        if not unsat:
            break
        if stop is not None and flip % _POLL == _POLL - 1 and stop():
            break
        clause = clauses[unsat[int(rand() * len(unsat))]]
        # every literal here is false; flipping its variable makes lit true and lit ^ 1
        # false, breaking the clauses where lit ^ 1 is the only true literal
        scores = []
        total = 0.0
        for lit in clause:
            broken = 0
            for i in occ[lit ^ 1]:
                if ntrue[i] == 1:
                    broken += 1
            w = weights[broken if broken < top else top]
            scores.append(w)
            total += w
        pick = rand() * total
        chosen = clause[-1]
        for lit, w in zip(clause, scores, strict=True):
            pick -= w
            if pick <= 0.0:
                chosen = lit
                break
        # flip: chosen becomes true, chosen ^ 1 false
        for i in occ[chosen ^ 1]:
            n = ntrue[i] - 1
            ntrue[i] = n
            if n == 0:
                where[i] = len(unsat)
                unsat.append(i)
        for i in occ[chosen]:
            n = ntrue[i]
            if n == 0:
                k = where[i]
                last = unsat.pop()
                if last != i:
                    unsat[k] = last
                    where[last] = k
                where[i] = -1
            ntrue[i] = n + 1
        assign[chosen >> 1] = chosen & 1
        if len(unsat) < best_unsat:
            best_unsat = len(unsat)
            best = assign[:]
    return best, best_unsat
