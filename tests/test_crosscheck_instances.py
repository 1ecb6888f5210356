"""crosscheck.instances: which files a batch takes, and what each one is read as."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from crosscheck.instances import (
    discover,
    is_instance_file,
    load_instance,
    looks_like_maze,
    maze_memory_need,
    natural_key,
)
from formats.errors import FormatError
from maze.cnf import encode
from maze.parser import parse_maze

SMALL = (
    "START A B\nGOLD WAND\n3\nSTART TREASURES NEXT A B\n"
    "A TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)


def write(path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def maze_dimacs(maze_name: str) -> str:
    """What `satkit maze encode --to dimacs` writes for the small maze read as ``maze_name``."""
    import io

    maze = parse_maze(SMALL, maze_name)
    handle = io.StringIO()
    encode(maze).write_dimacs(handle)
    return handle.getvalue()


def test_natural_order():
    names = ["uf50-010.cnf", "uf50-02.cnf", "uf50-1.cnf", "uf50-9.cnf"]
    ordered = ["uf50-1.cnf", "uf50-02.cnf", "uf50-9.cnf", "uf50-010.cnf"]
    assert sorted(names, key=natural_key) == ordered


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("a.cnf", True), ("a.CNF", True), ("a.cnf.gz", True), ("a.cnf.xz", True),
        ("a.cnf.bz2", True), ("a.dimacs", True), ("maze.txt", True), ("maze.txt.gz", True),
        ("README.md", False), ("a.cnf.zip", False), ("proof.drat", False), ("a.gz", False),
    ],
)  # fmt: skip
def test_which_files_a_folder_walk_takes(name, taken):
    assert is_instance_file(name) is taken


def test_discover_walks_folders_recursively_in_natural_order(tmp_path):
    write(tmp_path / "b" / "x-10.cnf", "p cnf 1 1\n1 0\n")
    write(tmp_path / "b" / "x-9.cnf", "p cnf 1 1\n1 0\n")
    write(tmp_path / "a" / "deep" / "m.txt", SMALL)
    write(tmp_path / "a" / "notes.md", "not an instance")
    single = write(tmp_path / "odd.name", "p cnf 1 1\n1 0\n")
    found = discover([str(tmp_path), single, str(tmp_path / "b" / "x-9.cnf")])
    rel = [os.path.relpath(p, tmp_path) for p in found]
    assert rel == ["a/deep/m.txt", "b/x-9.cnf", "b/x-10.cnf", "odd.name"]


def test_discover_walks_linked_folders_once_each(tmp_path):
    # a folder linked into the tree was skipped without a word (audit 19-A, crosscheck
    # note); a link back up must not loop, and two links to one folder check it once
    write(tmp_path / "data" / "x-1.cnf", "p cnf 1 1\n1 0\n")
    write(tmp_path / "top" / "own.cnf", "p cnf 1 1\n1 0\n")
    (tmp_path / "top" / "linked").symlink_to(tmp_path / "data")
    (tmp_path / "top" / "again").symlink_to(tmp_path / "data")
    (tmp_path / "top" / "up").symlink_to(tmp_path / "top")
    found = discover([str(tmp_path / "top")])
    rel = [os.path.relpath(p, tmp_path / "top") for p in found]
    assert rel == ["again/x-1.cnf", "own.cnf"]


def test_a_folder_reached_through_a_link_and_directly_is_named_by_its_real_place(tmp_path):
    # `bench/current -> uf20` sorted first, so records and FAIL lines said current/…
    # (review 19b #1)
    write(tmp_path / "bench" / "uf20" / "uf20-1.cnf", "p cnf 1 1\n1 0\n")
    (tmp_path / "bench" / "current").symlink_to(tmp_path / "bench" / "uf20")
    found = discover([str(tmp_path / "bench")])
    assert [os.path.relpath(p, tmp_path / "bench") for p in found] == ["uf20/uf20-1.cnf"]


def test_discover_walks_a_folder_nested_deeper_than_the_recursion_limit(tmp_path):
    # os.walk recursed per level on Python 3.11: 1,000 levels gave a RecursionError
    # traceback (audit 19-H #2)
    import sys

    folder = tmp_path / "deep"
    folder.mkdir()
    depth = sys.getrecursionlimit() + 50
    cwd = os.getcwd()
    os.chdir(folder)  # (building the path one level at a time stays short)
    try:
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
        write(Path("x.cnf"), "p cnf 1 1\n1 0\n")
    finally:
        os.chdir(cwd)
    try:
        (found,) = discover([str(folder)])
        assert found.endswith("/d/x.cnf")
    finally:  # shutil.rmtree recurses per level on 3.11 too: pytest could not clean this up
        os.chdir(folder)
        try:
            for _ in range(depth):
                os.chdir("d")
            os.remove("x.cnf")
            for _ in range(depth):
                os.chdir("..")
                os.rmdir("d")
        finally:
            os.chdir(cwd)


def test_maze_matching_is_linear_in_the_maze_s_nodes():
    # the node sets were rebuilt once per name: 20,000 nodes took 31 s in _mismatch and
    # `maze decode --maze` 400 s more at 100,000 nodes (audit 19-H #1). Counted, not timed:
    # set() must be called a fixed number of times whatever the size
    import builtins

    import crosscheck.instances as instances

    calls = []
    real_set = builtins.set

    class CountingSet(real_set):
        def __init__(self, *args):
            calls.append(1)
            super().__init__(*args)

    names = [f"N{i}" for i in range(300)]
    instances.set = CountingSet
    try:
        assert instances._mismatch("node", names, list(reversed(names))) is None
    finally:
        del instances.set
    assert len(calls) <= 2


def test_discover_passes_over_a_named_pipe_in_a_folder(tmp_path):
    # reading it would wait for a writer for ever (the batch hung)
    write(tmp_path / "a.cnf", "p cnf 1 1\n1 0\n")
    os.mkfifo(tmp_path / "fifo.cnf")
    os.symlink(tmp_path / "gone.cnf", tmp_path / "dangling.cnf")  # kept: one error line
    found = [os.path.basename(p) for p in discover([str(tmp_path)])]
    assert found == ["a.cnf", "dangling.cnf"]
    assert discover([str(tmp_path / "fifo.cnf")]) == [str(tmp_path / "fifo.cnf")]  # named


def test_discover_lists_a_folder_it_cannot_read_as_bad_input(tmp_path, monkeypatch):
    # os.walk passed over it: the batch checked fewer instances and said all was well
    # (audit 17-B #4); it is listed, and reading it says why, while the rest is checked
    # (review 17 #7). (Permissions do not stop root: the refusal is simulated.)
    (tmp_path / "a.cnf").write_text("p cnf 1 1\n1 0\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.cnf").write_text("p cnf 1 1\n1 0\n")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert discover([str(tmp_path)]) == [str(tmp_path / "a.cnf"), str(locked)]
    assert discover([str(locked)]) == [str(locked)]
    with pytest.raises(FormatError) as caught:
        load_instance(str(locked))
    assert str(caught.value) == f"{locked}: cannot read the folder: Permission denied"


def test_discover_lists_a_file_it_cannot_look_at(tmp_path, monkeypatch):
    # a file in a folder that denies access was "No such file or directory", and the batch
    # stopped (review 17b #7): it is listed, and reading it says why
    target = str(tmp_path / "locked" / "b.cnf")
    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if os.fspath(path) == target:
            raise PermissionError(13, "Permission denied", target)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    assert discover([target]) == [target]


def test_discover_reports_a_missing_path(tmp_path):
    with pytest.raises(FormatError) as caught:
        discover([str(tmp_path / "nope")])
    assert str(caught.value).endswith("nope: No such file or directory")


@pytest.mark.parametrize(
    ("text", "maze"),
    [
        (SMALL, True), ("c comment\np cnf 1 1\n1 0\n", False), ("1 -2 0\n", False),
        ("1 -2\n0\n", False), ("\n\n  START\n", True), ("", False), ("% end", False),
    ],
)  # fmt: skip
def test_looks_like_maze(text, maze):
    assert looks_like_maze(text) is maze


def test_plain_dimacs(tmp_path):
    path = write(tmp_path / "fam" / "a.cnf", "c hi\np cnf 4 2\n1 -2 0\n3 0\n")
    instance = load_instance(path)
    assert (instance.kind, instance.nvars, instance.clauses) == ("cnf", 4, [[1, -2], [3]])
    assert instance.family == "fam" and instance.path == os.path.abspath(path)
    assert instance.key is None and instance.maze is None


def test_compressed_dimacs_and_warnings(tmp_path):
    path = tmp_path / "a.cnf.gz"
    path.write_bytes(gzip.compress(b"p cnf 2 5\n1 0\n-2 0\n"))
    instance = load_instance(str(path))
    assert instance.clauses == [[1], [-2]]
    assert any("header" in note or "clauses" in note for note in instance.notes)


def test_satlib_trailer(tmp_path):
    path = write(tmp_path / "uf.cnf", "p cnf 2 1\n1 2 0\n%\n0\n\n")
    assert load_instance(path).clauses == [[1, 2]]


def test_dp_input_with_a_key_is_a_maze_cnf(tmp_path):
    cnf = encode(parse_maze(SMALL, "small"))
    import io

    handle = io.StringIO()
    cnf.write_dp_input(handle)
    path = write(tmp_path / "small.in", handle.getvalue())
    instance = load_instance(path)
    assert instance.kind == "maze-cnf" and len(instance.clauses) == 46
    assert instance.key is not None and instance.key.steps == 3
    assert instance.maze is None  # nothing says where the maze is
    assert any("unknown" in note for note in instance.notes)


def test_maze_file_is_encoded(tmp_path):
    path = write(tmp_path / "small.txt", SMALL)
    instance = load_instance(path)
    assert (instance.kind, len(instance.clauses), instance.nvars) == ("maze", 46, 20)
    assert instance.maze is not None and instance.maze.steps == 3
    compact = load_instance(path, encoding="compact")
    assert compact.encoding == "compact" and compact.nvars > 20
    assert compact.key is not None and compact.key.aux


def test_maze_cnf_finds_its_maze_through_the_comment(tmp_path):
    maze_path = write(tmp_path / "mazes" / "small.txt", SMALL)
    cnf_path = write(tmp_path / "cnfs" / "k3.cnf", maze_dimacs(maze_path))
    instance = load_instance(cnf_path)
    assert instance.kind == "maze-cnf" and instance.maze is not None
    assert instance.maze.nodes == ["START", "A", "B"] and instance.maze.steps == 3


def test_maze_cnf_finds_a_relative_maze_beside_it(tmp_path):
    write(tmp_path / "small.txt", SMALL)
    cnf_path = write(tmp_path / "other.cnf", maze_dimacs("small.txt"))
    assert load_instance(cnf_path).maze is not None


def test_maze_cnf_finds_a_sibling_maze_by_stem(tmp_path):
    write(tmp_path / "small.txt", SMALL)
    cnf_path = write(tmp_path / "small.cnf", maze_dimacs("gone/elsewhere.txt"))
    assert load_instance(cnf_path).maze is not None


def test_explicit_maze_wins_and_a_wrong_maze_is_refused(tmp_path):
    cnf_path = write(tmp_path / "x.cnf", maze_dimacs("nowhere.txt"))
    right = write(tmp_path / "right.maze", SMALL)
    assert load_instance(cnf_path, maze_path=right).maze is not None
    # a maze the user names must fit: an error, as in `maze decode` (it was a note)
    other = "START C\nGOLD\n1\nSTART TREASURES NEXT C\nC TREASURES GOLD NEXT\n"
    wrong = write(tmp_path / "wrong.maze", other)
    with pytest.raises(FormatError, match=r"x\.cnf: --maze .*wrong\.maze does not fit this CNF: "
                       "it has no node A"):
        load_instance(cnf_path, maze_path=wrong)
    bigger = write(tmp_path / "bigger.maze", SMALL.replace("START A B\n", "START A B C\n"))
    with pytest.raises(FormatError, match="the CNF has no atoms for its node C"):
        load_instance(cnf_path, maze_path=bigger)
    # found beside the CNF (not named by the user), a wrong maze is passed over with a note
    write(tmp_path / "x.txt", other)
    instance = load_instance(cnf_path)
    assert instance.maze is None
    assert any("maze file" in n and "not used: it has no node A" in n for n in instance.notes)


def test_a_maze_with_another_k_is_checked_with_the_cnfs_k_and_a_note(tmp_path):
    cnf_path = write(tmp_path / "x.cnf", maze_dimacs("nowhere.txt"))  # K=3
    k5 = write(tmp_path / "k5.maze", SMALL.replace("\n3\n", "\n5\n"))
    instance = load_instance(cnf_path, maze_path=k5)
    assert instance.maze is not None and instance.maze.steps == 3
    assert any("encoded with K=3" in n and "says K=5" in n for n in instance.notes)


def test_a_maze_named_for_a_plain_cnf_is_not_used_with_a_note(tmp_path):
    path = write(tmp_path / "plain.cnf", "p cnf 2 1\n1 2 0\n")
    maze = write(tmp_path / "small.txt", SMALL)
    instance = load_instance(path, maze_path=maze)
    assert instance.kind == "cnf" and instance.maze is None
    assert any("not used: the CNF names no At atoms" in note for note in instance.notes)


def test_other_tools_names_are_not_maze_atoms(tmp_path):
    path = write(tmp_path / "p.cnf", "c var 1 Brit 1\nc var 2 Swede 2\np cnf 2 1\n1 2 0\n")
    assert load_instance(path).kind == "cnf"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p cnf 2 1\n1 x 0\n", ":2:"),
        ("START A\nGOLD\nnot-a-number\n", "bad.txt:3:"),
        ("p cnf 1 1\n1 0\n", None),
    ],
)
def test_bad_input_is_a_format_error_with_a_line(tmp_path, text, message):
    path = write(tmp_path / ("bad.txt" if text.startswith("START") else "bad.cnf"), text)
    if message is None:
        load_instance(path)
        return
    with pytest.raises(FormatError) as caught:
        load_instance(path)
    assert message in str(caught.value)


def test_stdin_data_is_used_as_given():
    instance = load_instance("-", data=b"p cnf 1 1\n-1 0\n")
    assert instance.clauses == [[-1]] and instance.path is None and instance.name == "<stdin>"


def test_a_key_that_skips_a_time_is_not_used(tmp_path):
    # its K (here 10^9, from one bad name) would have been searched and decoded at that size
    path = tmp_path / "gap.cnf"
    path.write_text("p cnf 2 1\nc var 1 At(START,0)\nc var 2 At(A,1000000000)\n1 0\n")
    instance = load_instance(str(path))
    assert instance.kind == "cnf" and instance.key is None and instance.maze is None
    assert instance.notes == [
        f"{path}:3: the key is not used (the key names At atoms up to time 1000000000 but none"
        " of time 1: it is no key of a walk): checked as a plain CNF"
    ]


def example_with_k(folder: Path, k: int) -> Path:
    """data/maze/example.txt with K (its line 3) set to ``k``, written in ``folder``."""
    example = Path(__file__).resolve().parents[1] / "data" / "maze" / "example.txt"
    lines = example.read_text().splitlines(keepends=True)
    lines[2] = f"{k}\n"
    path = folder / f"k{k}.txt"
    path.write_text("".join(lines))
    return path


def test_a_maze_whose_k_cannot_fit_in_memory_is_bad_input_before_it_is_encoded(tmp_path):
    # crosscheck encoded it whole: K typo'd as 10^8 filled 24 GB (review 20)
    path = example_with_k(tmp_path, 100_000_000)
    with pytest.raises(FormatError) as info:
        load_instance(str(path))
    assert info.value.line == 3
    assert info.value.message.startswith(
        "K gives 5,700,000,049 clauses and 1,200,000,012 variables, which need at least"
    )
    assert info.value.message.endswith("(lower K, or --encoding compact)")


def test_the_memory_a_maze_needs_is_counted_per_variable_and_by_the_hungriest_solver(tmp_path):
    # 100 bytes a clause let K=10^6 (57 million clauses, 12 million variables) through on
    # 24 GB free; crosscheck took 30 GB and the OOM killer ended it (review 20b)
    path = example_with_k(tmp_path, 1_000_000)
    with pytest.raises(FormatError) as info:  # dpll:cdcl and minisat22, the default pair
        load_instance(str(path), solvers=["dpll:cdcl", "minisat22"], memory=26 * 10**9)
    assert info.value.message.startswith(
        "K gives 57,000,049 clauses and 12,000,012 variables, which need at least 27.1 GB of "
        "memory; 26.0 GB are available"
    )
    assert maze_memory_need(57_000_049, 12_000_012, ["minisat22"]) == 25_170_023_490
    assert maze_memory_need(100, 1, ["dpll", "bin:minisat"]) == 18_000 + 1_400  # ours
    assert maze_memory_need(100, 1, ["dpll", "m22"]) == 21_000 + 1_100  # PySAT's (m22)
    assert maze_memory_need(100, 1) == 17_000 + 1_100  # no solver named: the least figures
