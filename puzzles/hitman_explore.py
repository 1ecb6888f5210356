"""An explorer that plays Hitman phase 1 against the offline referee, deducing with SAT.

Loop: observe the status (`KnowledgeBase.observe`), deduce, then take the first
action of a cheapest plan to the nearest state from which an unknown cell
becomes visible, and repeat. When every cell is known, or no state can show an
unknown cell any more, the map is sent (unknown cells guessed from one model of
the knowledge base) and phase 1 ends.

The policy (`plan`) is Dijkstra over (position, orientation) states:

- moves go only into cells known to be passable (all their remaining contents
  are neither WALL nor a guard), so the explorer never makes an invalid move;
- an action costs what the referee will charge, as far as the known cells tell:
  1 + 5 × the guards known to watch the cell the hitman ends on (a known
  civilian's cell hides him), so cells known to be watched are avoided when a
  detour is cheaper;
- a goal is a state whose vision, computed over the known cells (sight passes
  known EMPTY cells only), reaches an unknown cell: reaching it reveals that cell;
- ties go to the first plan found with actions tried in the order move,
  turn_clockwise, turn_anti_clockwise: the run is deterministic (no randomness).

Every plan ends by revealing at least one cell, so the loop ends; `explore`
also stops after ``max_actions`` as a safeguard.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from puzzles.hitman_sat import KnowledgeBase
from puzzles.hitman_world import (
    ACTIONS,
    BLOCKING_MOVES,
    CIVILS,
    GUARD_SIGHT,
    HITMAN_SIGHT,
    ORIENTATIONS,
    PENALTY_PER_GUARD,
    Cell,
    HitmanMap,
    Phase1Referee,
    ahead,
    rotate,
)

State = tuple[Cell, str]


@dataclass
class Exploration:
    """What a phase-1 run did and how it scored.

    ``sent`` is the map sent to the referee; ``seen`` the cells some vision
    showed, ``deduced`` those determined by SAT without being seen, ``guessed``
    the cells still undetermined (sent as one model's contents); ``wrong`` the
    sent cells that differ from the truth; ``all_correct`` what
    ``send_content`` returned.
    """

    world: HitmanMap
    actions: list[str]
    invalid_moves: int
    penalties: int
    score: int
    message: str
    sent: dict[Cell, str]
    seen: set[Cell]
    deduced: set[Cell]
    guessed: set[Cell]
    wrong: list[Cell]
    all_correct: bool
    kb: KnowledgeBase = field(repr=False)

    @property
    def max_score(self) -> int:
        """2·m·n: every cell right with no action at all."""
        return 2 * self.world.m * self.world.n

    @property
    def determined(self) -> bool:
        """Whether every cell was seen or deduced (nothing guessed)."""
        return not self.guessed


EXPLORE_MAX_CELLS = 225
"""The largest grid (m·n) `explore` plays. Every step deduces every unknown cell again,
so the time grows about as the fifth power of the side: an empty 15 x 15 room takes
about 21 s, 20 x 20 about 100 s (the course's maps have at most 80 cells). A recorded
trace of a bigger map (up to `hitman_world.MAX_CELLS`) replays with one deduction."""


def explore(
    world: HitmanMap,
    *,
    max_actions: int | None = None,
    on_step: Callable[[int, int], None] | None = None,
) -> Exploration:
    """Play phase 1 on ``world``: explore, deduce, send the map, end the phase.

    ``max_actions`` (default 20·m·n) only guards against a planning bug. ``on_step``, when
    given, is told after each deduction how many cells are known and how many actions were
    taken (for a progress line). Raises ValueError for a grid above `EXPLORE_MAX_CELLS`.
    """
    if world.m * world.n > EXPLORE_MAX_CELLS:
        raise ValueError(
            f"map {world.name!r} has {world.m * world.n:,} cells; exploring takes at most"
            f" {EXPLORE_MAX_CELLS} (each step deduces every unknown cell again: an empty"
            " 15 x 15 room takes about 20 s, 20 x 20 about 100 s); --replay deduces from a"
            " recorded trace of it"
        )
    limit = 20 * world.m * world.n if max_actions is None else max_actions
    referee = Phase1Referee(world)
    kb = KnowledgeBase(world.m, world.n, world.guard_count, world.civil_count)
    status = referee.start_phase1()
    kb.observe(status)
    kb.deduce()
    actions: list[str] = []
    invalid = 0
    if on_step is not None:
        on_step(len(kb.known), 0)
    while len(kb.known) < world.m * world.n and len(actions) < limit:
        route = plan(kb, (status["position"], status["orientation"]))
        if not route:
            break
        previous, status = status, referee.act(route[0])
        actions.append(route[0])
        invalid += status["status"] != "OK"
        kb.observe(status, previous=previous, action=route[0])
        kb.deduce()
        if on_step is not None:
            on_step(len(kb.known), len(actions))
    guessed = {cell for cell in kb.cells if cell not in kb.known}
    sent = dict(kb.known)
    if guessed:
        model = kb.a_model_map()
        sent.update({cell: model[cell] for cell in guessed})
    all_correct = referee.send_content(sent)
    _ok, message, _history, truth = referee.end_phase1()
    seen = set(kb.seen)
    return Exploration(
        world=world,
        actions=actions,
        invalid_moves=invalid,
        penalties=referee.penalties,
        score=int(message.rsplit(" ", 1)[-1]),
        message=message,
        sent=sent,
        seen=seen,
        deduced=set(kb.known) - seen,
        guessed=guessed,
        wrong=sorted(cell for cell in sent if sent[cell] != truth[cell]),
        all_correct=all_correct,
        kb=kb,
    )


def passable(kb: KnowledgeBase, cell: Cell) -> bool:
    """Whether ``cell`` is on the grid and known not to be a wall or a guard."""
    return kb.inside(cell) and not set(kb.candidates[cell]) & set(BLOCKING_MOVES)


def known_watchers(kb: KnowledgeBase, cell: Cell) -> int:
    """The guards the known cells show watching ``cell`` (0 on a known civilian's cell)."""
    known = kb.known
    if known.get(cell) in CIVILS:
        return 0
    count = 0
    for orientation in ORIENTATIONS:
        for distance in range(1, GUARD_SIGHT + 1):
            guard = ahead(cell, orientation, -distance)
            between = [ahead(cell, orientation, -d) for d in range(1, distance)]
            if known.get(guard) == f"GUARD_{orientation}" and all(
                known.get(c) == "EMPTY" for c in between
            ):
                count += 1
    return count


def reveals(kb: KnowledgeBase, state: State) -> bool:
    """Whether the hitman in ``state`` would see a cell that is not known yet."""
    cell, orientation = state
    for distance in range(1, HITMAN_SIGHT + 1):
        ahead_cell = ahead(cell, orientation, distance)
        if not kb.inside(ahead_cell):
            return False
        content = kb.known.get(ahead_cell)
        if content is None:
            return True
        if content != "EMPTY":
            return False
    return False


def plan(kb: KnowledgeBase, start: State) -> list[str]:
    """The actions of a cheapest route to the nearest state that `reveals` a cell ([] if none)."""
    order = itertools.count()
    frontier = [(0, next(order), start, [])]
    best = {start: 0}
    while frontier:
        cost, _, state, route = heapq.heappop(frontier)
        if cost > best.get(state, cost):
            continue
        if route and reveals(kb, state):
            return route
        for action, after in _successors(kb, state):
            step = 1 + PENALTY_PER_GUARD * known_watchers(
                kb, after[0] if action == "move" else state[0]
            )
            if cost + step < best.get(after, cost + step + 1):
                best[after] = cost + step
                heapq.heappush(frontier, (cost + step, next(order), after, [*route, action]))
    return []


def _successors(kb: KnowledgeBase, state: State) -> list[tuple[str, State]]:
    cell, orientation = state
    nexts = []
    target = ahead(cell, orientation)
    if passable(kb, target):
        nexts.append((ACTIONS[0], (target, orientation)))
    nexts.append((ACTIONS[1], (cell, rotate(orientation, True))))
    nexts.append((ACTIONS[2], (cell, rotate(orientation, False))))
    return nexts
