"""The Hitman knowledge base: sound on every trace and random maps, satisfied by the truth,
cardinalities equal to brute force, and a DIMACS export with names."""

from __future__ import annotations

import itertools
import random

import pytest
from hitman_data import MAPS, needs_data, traces
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formats.dimacs import dimacs_text, parse_dimacs
from puzzles.hitman_sat import Inconsistent, KnowledgeBase, ObservationError
from puzzles.hitman_world import (
    ACTIONS,
    CIVILS,
    CONTENTS,
    GUARDS,
    HitmanMap,
    Phase1Referee,
    load_maps,
)


def check_truth(kb: KnowledgeBase, world: HitmanMap, every_clause: bool = True) -> None:
    """Every determined cell is right, and the true map extends to a model of the base;
    with ``every_clause``, that model is checked clause by clause here too."""
    for cell, content in kb.known.items():
        assert world.cells[cell] == content, f"{cell} deduced {content}, truth {world.cells[cell]}"
    model = kb.model_with(world.cells)
    assert model is not None, "the true map does not satisfy the knowledge base"
    if not every_clause:
        return
    true = {lit for lit in model if lit > 0}
    for clause in kb.clauses:
        assert any(lit in true if lit > 0 else -lit not in true for lit in clause), clause


@needs_data
@pytest.mark.parametrize("trace", traces(), ids=lambda t: f"{t['map']}-{t['seed']}")
def test_deductions_are_sound_after_every_action_of_every_trace(trace: dict) -> None:
    world = load_maps(MAPS)[trace["map"]]
    kb = KnowledgeBase(world.m, world.n, world.guard_count, world.civil_count)
    kb.observe(trace["start"])
    kb.deduce()
    check_truth(kb, world)
    previous = trace["start"]
    for step in trace["steps"]:
        kb.observe(step["status"], previous=previous, action=step["action"])
        previous = step["status"]
        kb.deduce()
        check_truth(kb, world, every_clause=False)
    check_truth(kb, world)
    assert set(kb.seen) <= set(kb.known)


def random_world(draw_random: random.Random, m: int, n: int) -> HitmanMap:
    """A small map that keeps the subject's rules: one target, one piano wire, ≤ 1 suit."""
    cells = [(x, y) for x in range(n) for y in range(m)]
    room = len(cells) > 2
    contents = ["TARGET", "PIANO_WIRE"] + (["SUIT"] if room and draw_random.random() < 0.5 else [])
    others = ["EMPTY"] * 4 + ["WALL", *GUARDS, *CIVILS]
    contents += [draw_random.choice(others) for _ in range(len(cells) - len(contents))]
    draw_random.shuffle(contents)
    if draw_random.random() < 0.7:  # the start cell is EMPTY on every known map
        spare = contents.index("EMPTY") if "EMPTY" in contents else None
        if spare is not None:
            contents[0], contents[spare] = contents[spare], contents[0]
    grid = dict(zip(cells, contents, strict=True))
    guards = sum(content in GUARDS for content in contents)
    civils = sum(content in CIVILS for content in contents)
    return HitmanMap("random", m, n, guards, civils, grid)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    m=st.integers(1, 4),
    n=st.integers(2, 4),
    steps=st.integers(0, 10),
)
def test_deductions_are_sound_on_random_small_maps(seed: int, m: int, n: int, steps: int) -> None:
    rng = random.Random(seed)
    world = random_world(rng, m, n)
    referee = Phase1Referee(world)
    status = referee.start_phase1()
    kb = KnowledgeBase(m, n, world.guard_count, world.civil_count)
    kb.observe(status)
    kb.deduce()
    check_truth(kb, world)
    for _ in range(steps):
        action = rng.choice(ACTIONS)
        previous, status = status, referee.act(action)
        kb.observe(status, previous=previous, action=action)
        kb.deduce()
        check_truth(kb, world)


ALPHABET = ("EMPTY", "WALL", "GUARD_E", "GUARD_W", "CIVIL_N", "TARGET", "PIANO_WIRE", "SUIT")


def rules_hold(cells: dict, guards: int, civils: int) -> bool:
    tally = list(cells.values())
    return (
        sum(c in GUARDS for c in tally) == guards
        and sum(c in CIVILS for c in tally) == civils
        and tally.count("TARGET") == 1
        and tally.count("PIANO_WIRE") == 1
        and tally.count("SUIT") <= 1
    )


@pytest.mark.parametrize(("guards", "civils"), [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0)])
def test_base_cardinalities_equal_brute_force(guards: int, civils: int) -> None:
    kb = KnowledgeBase(1, 3, guards, civils)
    for contents in itertools.product(CONTENTS, repeat=3):
        cells = {(x, 0): content for x, content in enumerate(contents)}
        assert (kb.model_with(cells) is not None) == rules_hold(cells, guards, civils), contents


@pytest.mark.parametrize("hear", range(6))
def test_hearing_equals_brute_force(hear: int) -> None:
    """1×5 grid, hitman at (0, 0): the window is x = 0..2, his own cell included."""
    kb = KnowledgeBase(1, 5, 1, 2)
    kb.observe({"position": (0, 0), "orientation": "N", "vision": [], "hear": hear, "penalties": 0})
    checked = 0
    for contents in itertools.product(
        ("EMPTY", "GUARD_N", "CIVIL_N", "TARGET", "PIANO_WIRE"), repeat=5
    ):
        cells = {(x, 0): c for x, c in enumerate(contents)}
        if rules_hold(cells, 1, 2):
            checked += 1
            truth = HitmanMap("w", 1, 5, 1, 2, cells).hear((0, 0)) == hear
            assert (kb.model_with(cells) is not None) == truth, contents
    assert checked == 5 * 4 * 3


def test_guard_sight_count_on_a_row_of_five() -> None:
    """1×5, 2 guards, 1 civilian: every arrangement, every k, against the simulator."""
    alphabet = ("EMPTY", "WALL", "GUARD_E", "GUARD_W", "CIVIL_N", "TARGET", "PIANO_WIRE")
    arrangements = []
    for contents in itertools.product(alphabet, repeat=5):
        cells = {(x, 0): c for x, c in enumerate(contents)}
        if rules_hold(cells, 2, 1):
            arrangements.append(HitmanMap("w", 1, 5, 2, 1, cells))
    assert len(arrangements) > 100
    for watching in range(3):
        kb = KnowledgeBase(1, 5, 2, 1)
        kb.observe_watchers((2, 0), watching)
        for world in arrangements:
            expected = world.watchers((2, 0)) == watching
            assert (kb.model_with(world.cells) is not None) == expected, world.cells


def test_a_seen_target_forces_the_piano_wire_elsewhere() -> None:
    kb = KnowledgeBase(1, 2, 0, 0)
    kb.observe(
        {
            "position": (0, 0),
            "orientation": "E",
            "vision": [((1, 0), "TARGET")],
            "hear": 0,
            "penalties": 0,
        }
    )
    assert kb.deduce() == {(0, 0): "PIANO_WIRE", (1, 0): "TARGET"}
    assert kb.deduce() == {}  # nothing new: no SAT call either
    assert kb.name(kb.var((1, 0), "TARGET")) == "TARGET_1_0"


def test_contradicting_observations_are_inconsistent() -> None:
    kb = KnowledgeBase(1, 3, 0, 0)
    kb.observe({"position": (0, 0), "orientation": "N", "vision": [], "hear": 2, "penalties": 0})
    with pytest.raises(Inconsistent):
        kb.deduce()


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (
            {"position": (5, 0), "orientation": "N", "vision": [], "hear": 0, "penalties": 0},
            "off the",
        ),
        (
            {"position": (0, 0), "orientation": "X", "vision": [], "hear": 0, "penalties": 0},
            "orientation",
        ),
        (
            {
                "position": (0, 0),
                "orientation": "N",
                "vision": [((0, 0), "CAT")],
                "hear": 0,
                "penalties": 0,
            },
            "CAT",
        ),
        ({"position": (0, 0), "orientation": "N", "vision": [], "hear": 7, "penalties": 0}, "hear"),
    ],
)
def test_impossible_statuses_are_observation_errors(status: dict, message: str) -> None:
    kb = KnowledgeBase(2, 2, 0, 0)
    with pytest.raises(ObservationError, match=message):
        kb.observe(status)


def test_penalty_not_of_the_form_one_plus_five_k_is_refused() -> None:
    kb = KnowledgeBase(2, 2, 0, 0)
    start = {"position": (0, 0), "orientation": "N", "vision": [], "hear": 0, "penalties": 0}
    after = dict(start, orientation="E", penalties=3, status="OK", is_in_guard_range=False)
    with pytest.raises(ObservationError, match="1 \\+ 5·k"):
        kb.observe(after, previous=start, action="turn_clockwise")


def test_observation_errors_show_values_as_json_writes_them() -> None:
    # audit 19-G #7: Python's None and True were shown for a trace's null and true
    start = {"position": (0, 0), "orientation": "N", "vision": [], "hear": 0, "penalties": 0}
    cases = [
        (dict(start, hear=None), {}, "hear null is not an integer from 0 to 5"),
        (dict(start, orientation=None), {}, "orientation null is not one of N, E, S, W"),
        (dict(start, vision=[[[0, 1], None]]), {}, "vision content null is not a cell content"),
        (dict(start, vision=[[None]]), {}, "vision entry [null] is not a [[x, y], CONTENT] pair"),
        (dict(start, position=[0, True]), {}, "position [0, true] is not an [x, y] pair of"),
        (
            dict(start, orientation="E", penalties=1, status="OK"),
            {"previous": start, "action": None},
            "unknown action null; one of move",
        ),
        (
            dict(start, orientation="E", penalties=1, status="OK", is_in_guard_range=True),
            {"previous": start, "action": "turn_clockwise"},
            "is_in_guard_range true but the penalty says 0 guard(s) watch",
        ),
    ]
    for status, step, message in cases:
        with pytest.raises(ObservationError) as caught:
            KnowledgeBase(2, 2, 0, 0).observe(status, **step)
        assert str(caught.value).startswith(message), str(caught.value)


def test_dimacs_export_names_every_named_variable() -> None:
    kb = KnowledgeBase(2, 2, 1, 0)
    kb.observe(
        {
            "position": (0, 0),
            "orientation": "N",
            "vision": [((0, 1), "GUARD_S")],
            "hear": 1,
            "penalties": 0,
        }
    )
    formula = parse_dimacs(dimacs_text(kb.formula(comments=["test"])))
    assert formula.names[kb.var((0, 1), "GUARD_S")] == "GUARD_S_0_1"
    assert formula.names[kb.var((1, 1), "PERSON")] == "PERSON_1_1"
    assert formula.clauses == kb.clauses and formula.nvars == kb.top
    assert [kb.var((0, 1), "GUARD_S")] in formula.clauses
