"""`satkit puzzle einstein` and `satkit puzzle solve`, end to end through click."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import puzzles.cli as cli
from formats.dimacs import parse_dimacs, write_dimacs
from puzzles.einstein import einstein_puzzle
from puzzles.zebra import encode

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "puzzles"
SEED_DATA = ROOT.parent / "shared" / "seeds-data" / "kompy99__SATSolver"
TABLE = [
    "             House 1    House 2  House 3    House 4  House 5",
    "Color        Yellow     Blue     Red        Green    White",
    "Nationality  Norwegian  Dane     Brit       German   Swede",
    "Beverage     Water      Tea      Milk       Coffee   Beer",
    "Cigar        Dunhill    Blends   Pall Mall  Prince   Bluemasters",
    "Pet          Cats       Horse    Birds      Fish     Dogs",
]


def engine_available(mode: str, heuristic: str | None) -> bool:
    try:
        from dpll import Solver

        Solver(bootstrap_with=[[1]], mode=mode, heuristic=heuristic, seed=0).delete()
    except (ImportError, ValueError):
        return False
    return True


needs_dpll = pytest.mark.skipif(
    not engine_available("classic", "two-clause"),
    reason="dpll.Solver's classic engine (the puzzle default) has not landed yet",
)
needs_cdcl = pytest.mark.skipif(
    not engine_available("cdcl", None), reason="dpll.Solver's cdcl engine has not landed yet"
)


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli.puzzle_group, list(args), input=stdin)


@needs_dpll
def test_einstein_prints_table_answer_uniqueness_and_splits() -> None:
    result = run("einstein")
    assert result.exit_code == 10, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "Einstein's puzzle: 5 houses, 5 categories, 15 hints (125 variables, 793 clauses)"
    )
    assert lines[2:8] == TABLE
    assert "Who owns the fish? German, in house 4." in lines
    assert "The solution is unique (with it blocked, the formula is unsatisfiable)." in lines
    assert lines[-1].startswith("Splitting-rule applications: ")
    assert lines[-1].endswith("(classic DPLL, two-clause heuristic, seed 0)")
    assert result.stderr == ""


@needs_dpll
def test_einstein_json_and_determinism() -> None:
    first = run("einstein", "--json", "--heuristic", "random", "--seed", "7")
    assert first.exit_code == 10
    report = json.loads(first.stdout)
    assert report["status"] == "SAT"
    assert (report["variables"], report["clauses"]) == (125, 793)
    assert report["answer"] == {
        "question": "Who owns the fish?",
        "category": "Nationality",
        "where": "Fish",
        "value": "German",
        "house": 4,
    }
    assert report["table"]["Pet"] == ["Cats", "Horse", "Birds", "Fish", "Dogs"]
    assert report["unique"] is True
    assert report["other_table"] is None
    assert report["solver"] == {"mode": "classic", "heuristic": "random", "seed": 7}
    assert isinstance(report["splits"], int) and report["splits"] >= 1
    again = json.loads(run("einstein", "--json", "--heuristic", "random", "--seed", "7").stdout)
    assert again == report


@needs_cdcl
def test_cdcl_mode_reports_decisions() -> None:
    result = run("einstein", "--mode", "cdcl")
    assert result.exit_code == 10
    assert "Who owns the fish? German, in house 4." in result.stdout
    assert result.stdout.splitlines()[-1].startswith("Decisions: ")
    # the heuristic that ran is named, in the text and in JSON (it was null there)
    assert result.stdout.splitlines()[-1].endswith("(cdcl, vsids, seed 0)")
    report = json.loads(run("einstein", "--mode", "cdcl", "--json").stdout)
    assert report["solver"] == {"mode": "cdcl", "heuristic": "vsids", "seed": 0}


@needs_dpll
def test_json_gives_the_question_as_the_text_words_it(tmp_path: Path) -> None:
    # a question without text: the text output made one up, JSON had ""
    puzzle = tmp_path / "q.toml"
    puzzle.write_text(
        '[categories]\nColor = ["Red", "Green", "Blue"]\nPet = ["Cat", "Dog", "Fish"]\n'
        '[[hints]]\nnext_to = ["Red", "Green"]\n[[hints]]\nleft_of = ["Green", "Blue"]\n'
        '[question]\nfind = "Pet"\nwhere = "Red"\n'
    )
    # (Pet is free: --no-unique, else the answer is "not determined", with both answers)
    text = run("solve", str(puzzle), "--no-unique")
    report = json.loads(run("solve", str(puzzle), "--json", "--no-unique").stdout)
    answer = report["answer"]
    assert answer["question"] == "Which Pet goes with Red?"
    assert f"{answer['question']} {answer['value']}, in house {answer['house']}." in text.stdout


@needs_dpll
def test_cnf_is_the_seed_file(tmp_path: Path) -> None:
    out = tmp_path / "einstein.cnf"
    result = run("einstein", "--cnf", str(out))
    assert result.exit_code == 10
    assert result.stderr == f"CNF written to {out}\n"
    text = out.read_text()
    if SEED_DATA.is_dir():
        # The seed file has no final newline; otherwise it is byte for byte the same.
        assert text == (SEED_DATA / "EinsteinDimacs.txt").read_text() + "\n"
    formula = parse_dimacs(text)
    assert formula.clauses == encode(einstein_puzzle()).formula.clauses
    assert formula.names == {}


@needs_dpll
def test_cnf_with_names(tmp_path: Path) -> None:
    out = tmp_path / "named.cnf"
    result = run("solve", str(DATA / "einstein.toml"), "--cnf", str(out), "--names", "-q")
    assert result.exit_code == 10
    assert result.stderr == ""
    formula = parse_dimacs(out.read_text())
    assert formula.names[119] == "Pet(4,Fish)"
    assert formula.names[76] == "Cigar(1,Pall Mall)"
    assert len(formula.names) == 125
    assert formula.clauses == encode(einstein_puzzle()).formula.clauses


@needs_dpll
def test_solve_the_second_puzzle() -> None:
    result = run("solve", str(DATA / "harbour-lane.json"))
    assert result.exit_code == 10
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Harbour Lane: 4 houses, 4 categories, 9 hints (64 variables")
    assert lines[2] == "       House 1  House 2   House 3  House 4"
    assert lines[3] == "Owner  Dev      Ben       Cleo     Ana"
    assert "Who owns the canoe? Ana, in house 4." in lines


@needs_dpll
def test_solve_reads_stdin() -> None:
    result = run("solve", "-", "--json", stdin=(DATA / "einstein.toml").read_text())
    assert result.exit_code == 10
    assert json.loads(result.stdout)["answer"]["value"] == "German"


@needs_dpll
def test_no_solution_exits_20(tmp_path: Path) -> None:
    path = tmp_path / "never.toml"
    path.write_text(
        '[categories]\nA = ["x", "y"]\n[[hints]]\nleft_of = ["x", "y"]\n'
        '[[hints]]\nleft_of = ["y", "x"]\n'
    )
    result = run("solve", str(path))
    assert result.exit_code == 20
    assert "No solution: the hints contradict each other." in result.stdout
    report = json.loads(run("solve", str(path), "--json").stdout)
    assert (report["status"], report["table"], report["unique"]) == ("UNSAT", None, None)


@needs_dpll
def test_one_hint_is_one_hint(tmp_path: Path) -> None:
    path = tmp_path / "one.toml"
    path.write_text('[categories]\nA = ["x", "y"]\n[[hints]]\nleft_of = ["x", "y"]\n')
    first = run("solve", str(path)).stdout.splitlines()[0]
    assert ", 1 hint (" in first, first
    # audit 19-G #7: "1 houses, 1 categories, 0 hints (1 variables, 2 clauses)"
    path.write_text('title = "x"\n[categories]\nA = ["x"]\n')
    first = run("solve", str(path)).stdout.splitlines()[0]
    assert first == "x: 1 house, 1 category, 0 hints (1 variable, 2 clauses)"


@needs_dpll
def test_the_table_lines_up_wide_characters(tmp_path: Path) -> None:
    # padded by len(), 日本 (two columns each) pushed its row out of line (audit 22-A #6)
    import unicodedata

    path = tmp_path / "wide.toml"
    path.write_text('[categories]\n"國家" = ["日本", "中國"]\nPet = ["cat", "dog"]\n'
                    '[[hints]]\nsame_house = ["日本", "cat"]\n'
                    '[[hints]]\nleft_of = ["日本", "中國"]\n')  # fmt: skip
    table = run("solve", str(path)).stdout.split("\n\n")[1].splitlines()

    def columns(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    second = columns(table[0][: table[0].index("House 2")])  # where the second column starts
    assert [columns(line[: line.rindex("  ") + 2]) for line in table[1:]] == [second] * 2, table


@needs_dpll
def test_not_unique_shows_a_second_solution(tmp_path: Path) -> None:
    path = tmp_path / "loose.json"
    path.write_text('{"categories": {"A": ["x", "y"]}}')
    result = run("solve", str(path))
    assert result.exit_code == 10
    assert "The solution is NOT unique; another one is:" in result.stdout
    report = json.loads(run("solve", str(path), "--json").stdout)
    assert report["unique"] is False
    assert {tuple(report["table"]["A"]), tuple(report["other_table"]["A"])} == {
        ("x", "y"),
        ("y", "x"),
    }
    quiet = run("solve", str(path), "--no-unique")
    assert "unique" not in quiet.stdout
    assert json.loads(run("solve", str(path), "--json", "--no-unique").stdout)["unique"] is None


THREE_FRIENDS = """title = "Three friends"
[categories]
Name = ["Ann", "Bob", "Cy"]
Pet = ["Cat", "Dog", "Emu"]
[question]
text = "Who owns the emu?"
find = "Name"
where = "Emu"
[[hints]]
fact = [2, "Cy"]
[[hints]]
somewhere_left_of = ["Bob", "Emu"]
[[hints]]
not_same_house = ["Cy", "Emu"]
[[hints]]
same_house = ["Bob", "Cat"]
"""


@needs_dpll
def test_somewhere_left_and_not_same_house_solve_the_published_style_puzzle(
    tmp_path: Path,
) -> None:
    # audit 19-G #1/#2: written with left_of (the only near kind) this puzzle said "Cy",
    # unique; as intended it has one solution, and Ann owns the emu
    path = tmp_path / "friends.toml"
    path.write_text(THREE_FRIENDS)
    result = run("solve", str(path))
    assert result.exit_code == 10, result.output
    assert "Who owns the emu? Ann, in house 3." in result.stdout.splitlines()
    assert "The solution is unique (with it blocked, the formula is unsatisfiable)." in (
        result.stdout.splitlines()
    )
    assert "Name  Bob      Cy       Ann" in result.stdout.splitlines()


def test_help_and_readme_say_what_each_hint_kind_means() -> None:
    # audit 19-G #1: neither said that left_of means *immediately* left, and an author who
    # meant "somewhere left" got another puzzle, answered as if certain
    from puzzles.zebra import HINT_KINDS

    help_text = run("solve", "--help").stdout
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Puzzles") :]
    section = section[: section.index("\n## ", 1)]
    for text in (help_text, section):
        for kind in HINT_KINDS:
            assert f"{kind} = [" in text, kind
        assert "immediately" in text.split("left_of = [A, B]", 1)[1].split("somewhere_left_of")[0]
        assert "at any distance" in text
        assert 'For "right of", swap the pair.' in text
    assert "    left_of = [A, B]            A's house is immediately left of B's" in help_text


@needs_dpll
def test_an_undetermined_answer_is_not_printed_as_fact(tmp_path: Path) -> None:
    # audit 19-G #3: "Which Pet goes with Red? Fish, in house 2." while the other solution
    # printed below gave Red the dog
    path = tmp_path / "open.toml"
    path.write_text(
        '[categories]\nColor = ["Red", "Blue", "Green"]\nPet = ["Dog", "Cat", "Fish"]\n'
        '[question]\nfind = "Pet"\nwhere = "Red"\n'
    )
    report = json.loads(run("solve", str(path), "--json").stdout)
    assert (report["unique"], report["answer_determined"]) == (False, False)
    first, other = report["answer"], report["other_answer"]
    assert first["value"] != other["value"]
    table, other_table = report["table"], report["other_table"]
    assert table["Pet"][table["Color"].index("Red")] == first["value"]
    assert other_table["Pet"][other_table["Color"].index("Red")] == other["value"]
    lines = run("solve", str(path)).stdout.splitlines()
    assert (
        f"Which Pet goes with Red? Not determined: {first['value']} (house {first['house']})"
        f" above, {other['value']} (house {other['house']}) in the other solution below."
    ) in lines
    assert not any(line.startswith("Which Pet") and ", in house" in line for line in lines)


@needs_dpll
def test_a_determined_answer_of_a_loose_puzzle_says_so(tmp_path: Path) -> None:
    path = tmp_path / "loose.toml"
    path.write_text(
        '[categories]\nColor = ["Red", "Blue", "Green"]\nPet = ["Dog", "Cat", "Fish"]\n'
        '[question]\nfind = "Pet"\nwhere = "Red"\n'
        '[[hints]]\nsame_house = ["Red", "Cat"]\n[[hints]]\nfact = [1, "Red"]\n'
    )
    result = run("solve", str(path))
    assert "Which Pet goes with Red? Cat (in every solution)." in result.stdout
    assert "The solution is NOT unique; another one is:" in result.stdout
    report = json.loads(run("solve", str(path), "--json").stdout)
    assert (report["unique"], report["answer_determined"]) == (False, True)
    assert report["other_answer"]["value"] == "Cat"
    einstein = json.loads(run("einstein", "--json").stdout)
    assert (einstein["answer_determined"], einstein["other_answer"]) == (True, None)


def test_bad_file_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    text = (DATA / "einstein.toml").read_text().replace('["Dane", "Tea"]', '["Dane", "Tee"]')
    path.write_text(text)
    result = run("solve", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    line = text.split("\n").index('same_house = ["Dane", "Tee"]') + 1
    assert result.stderr == f"error: {path}:{line}: unknown value 'Tee' (did you mean 'Tea'?)\n"


def test_missing_file(tmp_path: Path) -> None:
    result = run("solve", str(tmp_path / "absent.toml"))
    assert result.exit_code == 1
    assert result.stderr == f"error: {tmp_path / 'absent.toml'}: no such file\n"


def test_cnf_is_never_written_over_the_input(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.json"
    original = (DATA / "harbour-lane.json").read_text()
    path.write_text(original)
    result = run("solve", str(path), "--cnf", str(path))
    assert result.exit_code == 1
    assert "refusing to overwrite the input file" in result.stderr
    assert path.read_text() == original


def test_cnf_into_a_missing_folder(tmp_path: Path) -> None:
    result = run("einstein", "--cnf", str(tmp_path / "no" / "such" / "x.cnf"))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert "output folder does not exist" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["einstein", "--cnf", "-"], "--cnf - would mix the CNF with the answer"),
        (["einstein", "--names"], "--names only applies to the CNF file"),
        (
            ["einstein", "--mode", "cdcl", "--heuristic", "jw"],
            "--heuristic jw belongs to --mode classic",
        ),
        (["einstein", "--heuristic", "vsids"], "--heuristic vsids belongs to --mode cdcl"),
        (["einstein", "--heuristic", "vs"], "Invalid value for '--heuristic'"),
        (["solve"], "Missing argument 'FILE'"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


class LyingSolver:
    def __init__(self, model: list[int]) -> None:
        self.model = model

    def solve(self) -> bool:
        return True

    def get_model(self) -> list[int]:
        return self.model

    def add_clause(self, clause: list[int]) -> None:
        pass

    def accum_stats(self) -> dict[str, int]:
        return {}

    def delete(self) -> None:
        pass


def test_a_lying_solver_is_an_error_not_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "dpll_factory", lambda **_: lambda clauses: LyingSolver([1, 2]))
    result = run("einstein")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: the solver returned a model that is not a house table")


def test_interrupt_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "solve_puzzle", interrupted)
    monkeypatch.setattr(cli, "dpll_factory", lambda **_: None)
    result = run("einstein")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "interrupted: no answer\n"
    result = run("einstein", "--json")
    assert json.loads(result.stdout) == {"title": "Einstein's puzzle", "status": "UNKNOWN"}


@pytest.mark.parametrize("phase", ["load_puzzle", "write_dimacs"])
def test_an_interrupt_while_reading_or_writing_the_cnf_is_unknown_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, phase: str
) -> None:
    # before the solve it fell to the generic handler: exit 130, no JSON (audit 27-A #1)
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, phase, interrupted)
    puzzle = tmp_path / "toy.toml"
    puzzle.write_text('title = "toy"\n[categories]\nA = ["x", "y"]\n[[hints]]\nfact = [1, "x"]\n')
    cnf = tmp_path / "toy.cnf"
    result = run("solve", str(puzzle), "--cnf", str(cnf))
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "interrupted: no answer\n")
    result = run("solve", str(puzzle), "--cnf", str(cnf), "--json")
    title = None if phase == "load_puzzle" else "toy"  # (not known before the file is read)
    assert json.loads(result.stdout) == {"title": title, "status": "UNKNOWN"}
    assert result.exit_code == 0 and not cnf.exists()


def test_an_interrupted_uniqueness_check_keeps_the_solution_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl-C after the first solve threw away a solution already found and checked
    # (audit 22-A #1)
    from dpll import Solver

    class StoppedSecondTime(Solver):
        def solve(self, assumptions=()):  # type: ignore[override]
            if self.accum_stats().get("decisions", 0) or self.get_status() is not None:
                raise KeyboardInterrupt
            return super().solve(assumptions)

    monkeypatch.setattr(
        cli, "dpll_factory", lambda **_: lambda clauses: StoppedSecondTime(bootstrap_with=clauses)
    )
    result = run("einstein")
    assert result.exit_code == 10
    assert "Who owns the fish? German, in house 4." in result.stdout
    assert "Whether the solution is unique is not known: its check was interrupted." in (
        result.stdout
    )
    report = json.loads(run("einstein", "--json").stdout)
    assert report["status"] == "SAT" and report["table"] is not None
    assert (report["unique"], report["uniqueness_check_interrupted"]) == (None, True)


def test_registered_in_satkit() -> None:
    from satkit import main

    result = CliRunner().invoke(main, ["puzzle", "--help"])
    assert result.exit_code == 0
    assert "einstein" in result.stdout and "solve" in result.stdout


def test_a_directory_as_a_puzzle_file_or_cnf_is_one_error_line(tmp_path):
    # as in solve, dp and maze (click's own check gave a usage block and exit 2)
    for args in (["solve", str(tmp_path)], ["einstein", "--cnf", str(tmp_path)]):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == f"error: {tmp_path}: is a directory, not a file\n"


@pytest.mark.skipif(not hasattr(sys, "get_int_max_str_digits"), reason="no digit limit here")
def test_a_number_too_long_for_int_is_one_error_line_in_json_toml_maps_and_traces(
    tmp_path: Path,
) -> None:
    # 5,000 digits passed the JSON/TOML parsers to int(), whose 4,300-digit limit raised a
    # ValueError that no except clause took: a traceback (audit 26-C F2)
    huge = "1" * 5000
    cases = {
        "p.json": (f'{{"title": "x",\n "houses": {huge}}}', "solve", 2, "JSON"),
        "p.toml": (f'title = "x"\nhouses = {huge}\n', "solve", 2, "TOML"),
        "maps.json": (f'{{"format": "hitman-maps/1", "maps": {{"a": {{"m": {huge}}}}}}}',
                      "hitman", 1, "JSON"),
    }  # fmt: skip
    for name, (text, command, line, kind) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = run(command, str(path))
        assert result.exit_code == 1, name
        assert result.stderr == (
            f"error: {path}:{line}: invalid {kind}: a number of 5,000 digits "
            "(at most 4,300 are read)\n"
        ), name
    digits_401 = "9" * 401  # below the limit: read, then refused for what it says
    path = tmp_path / "ok.json"
    path.write_text(f'{{"title": "x", "houses": {digits_401}}}')
    assert "a number of" not in run("solve", str(path)).stderr


@pytest.mark.skipif(not hasattr(sys, "get_int_max_str_digits"), reason="no digit limit here")
@pytest.mark.parametrize(
    ("name", "text", "line", "digits"),
    [
        # digits in a string or a comment first: the error named their line (review 26 #4)
        ("s.toml", 'title = "{b}"\nx = 1\nhouses = {b}\n', 3, "5,000"),
        ("c.toml", "# {b}\nhouses = {b}\n", 2, "5,000"),
        ("f.toml", "x = 1.{b}\nhouses = {b}\n", 2, "5,000"),
        ("s.json", '{{"title": "{b}",\n"x": 1,\n"houses": {b}}}', 3, "5,000"),
        # TOML may write 1_000: 4,400 digits with no run of 4,301 was a traceback (#2)
        ("u.toml", "houses = {u}\n", 1, "4,400"),
        # a hex integer, a float's signed exponent, a key of digits: no int() (review 26-B #2)
        ("h.toml", "a = 0x{b}\nhouses = {c}\n", 2, "4,400"),
        ("e.toml", "a = 1e+{b}\nhouses = {c}\n", 2, "4,400"),
        ("k.toml", "{b} = 1\nhouses = {c}\n", 2, "4,400"),
        ("e.json", '{{"a": 1e-{b},\n"houses": -{c}}}', 2, "4,400"),
    ],
)
def test_the_number_too_long_for_int_is_found_where_it_is(tmp_path, name, text, line, digits):
    path = tmp_path / name
    path.write_text(text.format(b="1" * 5000, c="2" * 4400, u="_".join(["1"] * 4400)))
    result = run("solve", str(path))
    kind = "TOML" if name.endswith(".toml") else "JSON"
    assert (result.exit_code, result.stderr) == (1, (
        f"error: {path}:{line}: invalid {kind}: a number of {digits} digits "
        "(at most 4,300 are read)\n"))


@needs_cdcl
@pytest.mark.parametrize("command", ["einstein", "solve"])
def test_a_refused_answer_leaves_the_cnf_file_as_it_was(tmp_path: Path, command: str) -> None:
    # `--cnf OUT --answer BAD` wrote OUT, then refused the answer (exit 1): README says a run
    # refused for bad input leaves its files as they were (audit 28-C, smaller observations)
    from pysat.solvers import Minisat22

    from formats.results import SolverResult, competition_text

    args = [command] if command == "einstein" else [command, str(DATA / "einstein.toml")]
    clauses = encode(einstein_puzzle()).formula.clauses
    with Minisat22(bootstrap_with=clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    cnf = tmp_path / "out.cnf"
    answers = {
        "bad.out": ("s SATISFIABLE\nv 1 0\n", 1),  # (breaks a clause)
        "dp-input.dp": ("-1 -2\n0\n", 1),
        "unknown.out": ("s UNKNOWN\n", 0),  # (no bad input: the CNF is written)
        "good.out": (competition_text(SolverResult("SAT", model)), 10),
    }
    for file, (text, code) in answers.items():
        cnf.write_text("old\n")
        answer = tmp_path / file
        answer.write_text(text)
        result = run(*args, "--cnf", str(cnf), "--answer", str(answer))
        assert result.exit_code == code, (file, result.output)
        if code == 1:
            assert cnf.read_text() == "old\n" and "CNF written" not in result.stderr, file
        else:
            assert parse_dimacs(cnf.read_text()).clauses == clauses, file


def test_the_puzzles_cnf_or_dp_input_given_as_the_answer_is_told_so(tmp_path: Path) -> None:
    # `--answer` given the CNF (or its DP input) instead of a solver's answer said "expected
    # 'ATOM T' or 'ATOM F', found '-1 -2'" (audit 28-C, smaller observations)
    formula = encode(einstein_puzzle()).formula
    cnf = tmp_path / "einstein.cnf"
    write_dimacs(formula, str(cnf))
    dp = tmp_path / "einstein.dp"
    dp.write_text("".join(" ".join(map(str, c)) + "\n" for c in formula.clauses) + "0\n")
    header = cnf.read_text().splitlines().index(f"p cnf {formula.nvars} {len(formula.clauses)}")
    told = {
        cnf: f"error: {cnf}:{header + 1}: this is a CNF, not a solver's answer: give what a solver "
        "prints for it\n",
        dp: f"error: {dp}:1: this is a DP input, not a DP output: give what `satkit dp` "
        "writes for it\n",
    }
    for answer, message in told.items():
        result = run("einstein", "--answer", str(answer))
        assert (result.exit_code, result.stderr) == (1, message)
    lone = tmp_path / "lone.out"  # one line of literals: a model that lost its SAT line
    lone.write_text("1 -2 3 0\n")
    result = run("einstein", "--answer", str(lone))
    assert result.exit_code == 1 and "not a solver's answer" not in result.stderr
