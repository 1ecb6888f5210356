"""Fuzzing: many random instances cross-checked on worker processes; every failure saved,
shrunk, and given a one-line command that reproduces it.

Instance ``i`` of a run with seed ``S`` uses family ``families[i % len(families)]``
and seed ``S + i``, so any one of them is regenerated with
``satkit fuzz --family F --seed S+i --count 1``. For each failure
:func:`save_failure` writes, in the output folder:

- ``<family>-<seed>.cnf``: the failing formula (its ``c seed N`` line first);
  a maze also as ``maze-<seed>.txt``;
- ``<family>-<seed>.min.cnf``: the shrunk formula (:mod:`crosscheck.shrink`),
  whose ``c reproduce:`` comment is the command that shows the failure again.

An instance on which a solver timed out is no failure, but :func:`save_timeout` saves
its ``<family>-<seed>.cnf`` (and maze file) the same way, unshrunk: the formula behind
a hang. With ``FuzzOptions.fail_on_timeout`` (``--fail-on-timeout``) a timeout is a
failure: saved and shrunk as one, and every command written carries the option.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from crosscheck.check import CheckOptions, bad_input_record, check_instance
from crosscheck.generators import cnfuzz, edge, random_ksat, random_maze
from crosscheck.instances import Instance, maze_instance
from crosscheck.pool import run_pool
from crosscheck.shrink import ShrinkProgress, ShrinkResult, failure_signature, shrink_instance
from formats.dimacs import write_dimacs
from formats.errors import FormatError
from formats.formula import Formula
from formats.streams import write_text_atomic
from maze.cnf import encode
from maze.writer import maze_text

FAMILIES = ("cnfuzz", "ksat", "maze")
"""The default fuzz families, in the order instances cycle through them."""

ALL_FAMILIES = (*FAMILIES, "edge")
"""Every fuzz family: ``edge`` (cnfuzz with edge cases, see `crosscheck.generators.edge`)
only when asked for, so that runs without ``--family`` keep their formulas."""

DEFAULT_TIMEOUT = 60.0


@dataclass
class FuzzOptions:
    """A fuzz run: ``count`` instances from ``seed`` on, cycling through ``families``."""

    count: int = 100
    seed: int = 0
    families: Sequence[str] = FAMILIES
    max_vars: int = 200
    jobs: int = 1
    check: CheckOptions = field(default_factory=CheckOptions)
    fail_on_timeout: bool = False
    """A timeout is a failure (``--fail-on-timeout``): shrunk, and said in every command."""

    def __post_init__(self) -> None:
        self.families = tuple(dict.fromkeys(self.families))  # a family named twice counts once

    def case(self, index: int) -> tuple[str, int]:
        """(family, seed) of instance ``index``."""
        return self.families[index % len(self.families)], self.seed + index


_CNF_FAMILIES = {"cnfuzz": cnfuzz, "ksat": random_ksat, "edge": edge}


def fuzz_instance(family: str, seed: int, max_vars: int = 200) -> Instance:
    """The instance a family generates from ``seed`` (ValueError for an unknown family, or
    a negative seed: `random.Random` takes its absolute value, so it would repeat one)."""
    if seed < 0:
        raise ValueError(f"a fuzz seed is 0 or more, not {seed} (-S would repeat S's formula)")
    if family == "maze":
        maze, encoding = random_maze(seed, max_vars)
        instance = maze_instance(maze, f"maze-{seed}", encoding=encoding, family="maze")
    elif family in _CNF_FAMILIES:
        formula = _CNF_FAMILIES[family](seed, max_vars)
        instance = Instance(f"{family}-{seed}", formula.clauses, formula.nvars, "cnf", family)
    else:
        raise ValueError(f"unknown fuzz family {family!r} (valid: {', '.join(ALL_FAMILIES)})")
    instance.seed = seed
    return instance


def run_fuzz(options: FuzzOptions) -> Iterator[dict[str, Any]]:
    """Check ``options.count`` generated instances on ``options.jobs`` workers; yield records
    as they finish (a worker that dies gives a ``crash`` record)."""
    solvers = list(options.check.solvers)

    def work(index: int) -> dict[str, Any]:
        family, seed = options.case(index)
        record = check_instance(fuzz_instance(family, seed, options.max_vars), options.check)
        record["family"] = family
        record["max_vars"] = options.max_vars  # the generator's bound: part of the instance
        return record

    def lost(index: int, kind: str, reason: str) -> dict[str, Any]:
        family, seed = options.case(index)
        name = f"{family}-{seed}"
        record = bad_input_record(name, None, reason, options.check, kind)
        record.update(family=family, seed=seed, max_vars=options.max_vars)
        return record

    watchdog = options.check.timeout * (2 * len(solvers) + 3) + 60.0
    results = run_pool(options.count, work, lost, jobs=options.jobs, watchdog=watchdog)
    try:
        for _index, record in results:
            yield record
    finally:
        results.close()


def printable(text: str) -> str:
    """``text`` that any UTF-8 file can hold: the bytes of a file name that is not UTF-8
    (Python's lone surrogates) become ``\\udcXX`` escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def command_path(path: str) -> str:
    """``path`` as a command's argument: one that starts with ``-`` (``-w.min.cnf``, a file in
    ``--out -x``) as ``./-w.min.cnf``, which no command takes for an option (``-`` alone,
    stdin, stays as it is).

    >>> command_path("-w.min.cnf"), command_path("out/a.cnf"), command_path("-")
    ('./-w.min.cnf', 'out/a.cnf', '-')
    """
    if path.startswith("-") and path != "-":
        return os.path.join(os.curdir, path)
    return path


def _timeout_words(timeout: float, fail_on_timeout: bool) -> list[str]:
    """``--timeout S`` when S is not the default or a timeout is a failure (then the deadline
    is part of it, so it is always said), and ``--fail-on-timeout``."""
    words = []
    if timeout != DEFAULT_TIMEOUT or fail_on_timeout:
        words += ["--timeout", f"{timeout:g}"]
    if fail_on_timeout:
        words.append("--fail-on-timeout")
    return words


def check_command(
    path: str,
    options: CheckOptions,
    *,
    encoding: str | None = None,
    fail_on_timeout: bool = False,
) -> str:
    """The ``satkit crosscheck`` command line that re-checks ``path`` the same way (with
    ``--fail-on-timeout`` when ``fail_on_timeout``: a hang is the failure it shows)."""
    words = ["satkit", "crosscheck", command_path(path), "--solvers", ",".join(options.solvers)]
    words += _timeout_words(options.timeout, fail_on_timeout)
    if options.proofs:
        words.append("--proofs")
    if options.seed:
        words += ["--seed", str(options.seed)]
    if encoding and encoding != "assignment":
        words += ["--encoding", encoding]
    return shlex.join(words)


def regenerate_command(
    family: str, seed: int, options: FuzzOptions, out_dir: str | None = None
) -> str:
    """The ``satkit fuzz`` command line that regenerates and re-checks one instance (saving
    what it finds in ``out_dir``, when given)."""
    words = ["satkit", "fuzz", "--family", family, "--seed", str(seed), "--count", "1"]
    words += ["--max-vars", str(options.max_vars), "--solvers", ",".join(options.check.solvers)]
    words += _timeout_words(options.check.timeout, options.fail_on_timeout)
    if options.check.proofs:
        words.append("--proofs")
    if options.check.seed:
        words += ["--solver-seed", str(options.check.seed)]
    if out_dir is not None:
        words += ["--out", out_dir]
    return shlex.join(words)


@dataclass
class SavedFailure:
    """What :func:`save_failure` (or :func:`save_timeout`) wrote and the command that
    reproduces the failure (for a timeout: regenerates the instance)."""

    record: dict[str, Any]
    files: list[str]
    reproduce: str
    shrunk: ShrinkResult | None = None
    did_not_fail_again: bool = False
    """Checked again before shrinking, the instance did not fail (a flaky solver, a worker
    that died): ``reproduce`` only regenerates it, saved unshrunk."""
    regenerates: bool = False
    """``reproduce`` is the fuzz command that makes the instance again (saved unshrunk),
    not a check of a saved file."""


def _save_instance(
    instance: Instance, family: str, seed: int, options: FuzzOptions, out_dir: str
) -> tuple[str, list[str], str | None]:
    """Write ``instance`` as ``<family>-<seed>.cnf`` (and a maze as ``maze-<seed>.txt``) in
    ``out_dir`` with its ``c seed`` and ``c regenerate`` comments; return the path stem,
    the files written and the maze file (None for a CNF).

    A ``<family>-<seed>.min.cnf`` already there is removed: it was shrunk by an earlier
    run, maybe from other solvers, and must not pass for this instance's shrunk form
    (which, when there is one, is written after this)."""
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, f"{family}-{seed}")
    with contextlib.suppress(FileNotFoundError):
        os.remove(stem + ".min.cnf")
    files: list[str] = []
    regenerate = regenerate_command(family, seed, options, out_dir)
    comments = [f"seed {seed}", f"fuzz family {family}", printable(f"regenerate: {regenerate}")]
    if family == "edge":  # which edge cases went in (the generator lists them)
        made = _CNF_FAMILIES[family](seed, options.max_vars)
        comments += [text for text in made.comments if text.startswith("edge")]
    original = Formula(nvars=instance.nvars, clauses=instance.clauses, comments=comments)
    maze_file = None
    if instance.maze is not None:
        # the CNF names its atoms and its maze file, so `satkit crosscheck X.cnf` (or
        # `maze decode … --cnf X.cnf`) checks paths against the maze, as the fuzz run did
        maze = instance.maze
        maze_file = os.path.join(out_dir, f"maze-{seed}.txt")
        original.names = encode(maze, instance.encoding or "assignment").names()
        comments.append(
            f"maze maze-{seed}.txt: {len(maze.nodes)} nodes, {len(maze.treasures)} treasures, "
            f"K={maze.steps}"
        )
    write_dimacs(original, stem + ".cnf")
    files.append(stem + ".cnf")
    if maze_file is not None:
        write_text_atomic(maze_file, maze_text(instance.maze))
        files.append(maze_file)
    return stem, files, maze_file


def save_timeout(record: dict[str, Any], options: FuzzOptions, out_dir: str) -> SavedFailure:
    """Save an instance on which a solver timed out, as :func:`save_failure` saves a failure
    but never shrunk (a timeout is no failure, and shrinking keeps failures only): the
    formula behind a hang, with the command that regenerates it. (With
    ``options.fail_on_timeout`` a timeout is a failure, which :func:`save_failure` saves.)"""
    family, seed = record["family"], record["seed"]
    instance = fuzz_instance(family, seed, options.max_vars)
    _stem, files, _maze_file = _save_instance(instance, family, seed, options, out_dir)
    command = regenerate_command(family, seed, options, out_dir)
    return SavedFailure(record, files, command, regenerates=True)


def save_failure(
    record: dict[str, Any],
    options: FuzzOptions,
    out_dir: str,
    *,
    max_checks: int = 5000,
    shrink: bool = True,
    progress: ShrinkProgress | None = None,
) -> SavedFailure:
    """Save a failed fuzz instance and its shrunk form in ``out_dir`` (see the module docstring).

    Without ``shrink`` only the instance is saved (with the command that regenerates it);
    ``progress`` is handed to :func:`crosscheck.shrink.shrink_instance`.
    """
    family, seed = record["family"], record["seed"]
    instance = fuzz_instance(family, seed, options.max_vars)
    stem, files, maze_file = _save_instance(instance, family, seed, options, out_dir)
    regenerate = regenerate_command(family, seed, options, out_dir)
    if not shrink:
        return SavedFailure(record, files, regenerate, regenerates=True)
    timeouts = options.fail_on_timeout
    shrunk = shrink_instance(
        instance, options.check, max_checks=max_checks, progress=progress, timeouts=timeouts
    )
    if shrunk is None:
        # The plain CNF did not fail: the failure needs the maze (its search or a path),
        # or did not come back (a flaky solver, a worker that died). The original is all
        # there is, and the command only regenerates it when it did not fail again.
        if maze_file and is_failure(check_instance(instance, options.check), timeouts):
            command = check_command(
                maze_file, options.check, encoding=record.get("encoding"), fail_on_timeout=timeouts
            )
            return SavedFailure(record, files, command)
        return SavedFailure(record, files, regenerate, did_not_fail_again=True, regenerates=True)
    min_path = stem + ".min.cnf"
    reproduce = check_command(min_path, options.check, fail_on_timeout=timeouts)
    described = ", ".join(f"{solver} {outcome}" for solver, outcome in sorted(shrunk.failures))
    minimal = Formula(
        nvars=shrunk.nvars,
        clauses=shrunk.clauses,
        comments=[
            printable(f"reproduce: {reproduce}"),
            printable(
                f"shrunk from {family} seed {seed}: {shrunk.original_clauses} -> "
                f"{len(shrunk.clauses)} clauses in {shrunk.checks} checks ({described})"
                f"{shrunk.stopped_early()}{shrunk.flaky()}"
            ),
        ],
    )
    write_dimacs(minimal, min_path)
    files.append(min_path)
    return SavedFailure(record, files, reproduce, shrunk)


@contextlib.contextmanager
def failure_folder(out_dir: str) -> Iterator[None]:
    """Make sure failures can be saved in ``out_dir`` before a run, not after it.

    The folder is created when missing and a file is written (and removed) in it;
    FormatError says why when either fails (a file in the way, a missing or
    read-only parent, ``/proc``). A folder made here, and the parents made for it,
    are removed again on the way out when the run saved nothing in them.
    """
    if not out_dir:
        raise FormatError("''", None, "an empty name is no folder")
    made: list[str] = []
    probe = os.path.abspath(out_dir)
    while not os.path.lexists(probe):
        made.append(probe)  # deepest first
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    try:
        os.makedirs(out_dir, exist_ok=True)
    except FileExistsError:
        raise FormatError(out_dir, None, "is not a folder") from None
    except OSError as exc:
        raise FormatError(out_dir, None, f"cannot be created: {exc.strerror or exc}") from None
    try:
        if not os.path.isdir(out_dir):
            raise FormatError(out_dir, None, "is not a folder")
        try:
            with tempfile.TemporaryFile(dir=out_dir):
                pass
        except OSError as exc:
            raise FormatError(out_dir, None, f"cannot be written: {exc.strerror or exc}") from None
        yield
    finally:
        for folder in made:
            try:
                os.rmdir(folder)
            except OSError:
                break  # not empty (failures saved there), or not ours to remove


def is_failure(record: dict[str, Any], timeouts: bool = False) -> bool:
    """True for a record whose instance failed (a worker crash included); with ``timeouts``
    (``--fail-on-timeout``) also one that timed out (a worker overrunning the watchdog too)."""
    failed = ("crash", "timeout") if timeouts else ("crash",)
    return bool(failure_signature(record, timeouts)) or record.get("verdict") in failed
