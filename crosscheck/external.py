"""External SAT solvers (minisat, cadical, kissat, picosat, any other): run on DIMACS, read back.

Each known program has an I/O style (the driver table cnfgen's
``utils/solver.py`` also keeps):

- ``minisat``: ``minisat -verb=0 IN OUT`` writes MiniSat's result file
  (``SAT`` + model line, ``UNSAT``, ``INDET``); exit 10 / 20, 3 on a parse error.
- ``cadical -q IN``, ``kissat -q IN``, ``picosat IN``: SAT-competition output on
  stdout (``s``/``v`` lines), exit 10 / 20. CaDiCaL prints only ``c UNKNOWN``
  (no ``s`` line) when a limit stops it; picosat prints parse errors on stdout
  and exits 0 — so an exit code other than 10 / 20 is an answer only when the
  output says UNKNOWN, and anything else is a crash.

Any other program (``bin:glucose``, ``bin:/opt/bin/mysolver``) is run as
``PROGRAM IN`` and its stdout read as SAT-competition output (style
``competition``): its ``s`` line is the answer, the exit code may be 0 or
the competition's 10 (SAT) / 20 (UNSAT), and a code that contradicts the
``s`` line, a signal, output that is not ``c``/``s``/``v`` lines, or no
``s`` line (unless the output says UNKNOWN) is a crash.

CaDiCaL and Kissat write a DRAT proof when a second file is named after the input
(:data:`PROOF_OPTIONS`: as text, which dratify reads); ``run_program(…, proof_path=…)`` asks
for one.

:func:`run_program` runs one program under a deadline that really stops it
(the process and every process still below it are killed: a wrapper script's
solver would otherwise run on; on Linux, what it leaves running when it ends, detached by
a double fork too, is adopted and killed: `kill_leftovers`) and returns an
:class:`ExternalAnswer`.
:class:`ExternalSolver` wraps that in the PySAT surface, so the registry can
hand out ``bin:cadical`` like any other solver.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import psutil

from dpll.inputs import NO_ATMOST, checked_clause, clauses_of, declared_vars, has_atmosts
from formats.dimacs import format_clause
from formats.errors import MACHINE_ERRNOS, EnvironmentFailure, FormatError, machine_failure
from formats.results import parse_competition, parse_minisat_result
from formats.signals import STOP_SIGNALS
from formats.streams import text_lines

PROGRAMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "minisat": ("result-file", ("-verb=0",)),
    "cadical": ("stdout", ("-q",)),
    "kissat": ("stdout", ("-q",)),
    "picosat": ("stdout", ()),
}
"""Program name -> (I/O style, options placed before the input file)."""

PROOF_OPTIONS: dict[str, tuple[str, ...]] = {
    "cadical": ("--no-binary",),
    "kissat": ("--no-binary",),
}
"""Programs that write a DRAT proof to a file named after the input (``cadical -q
--no-binary IN PROOF``), with the options that make it text DRAT rather than binary."""

GENERIC: tuple[str, tuple[str, ...]] = ("competition", ())
"""The I/O style and options of every program not in :data:`PROGRAMS`: ``PROGRAM IN``,
SAT-competition output on stdout, exit code 0 or 10 / 20."""

_EXIT_CODES = {"SAT": (10,), "UNSAT": (20,)}
"""Exit codes a known program gives with each answer ..."""
_COMPETITION_EXIT_CODES = {"SAT": (0, 10), "UNSAT": (0, 20)}
"""... and those any other (``competition``-style) program may give."""

_TAIL = 400  # characters of a crashed program's output kept for the message


class ProgramFailed(RuntimeError):
    """An external program crashed or broke the output conventions (`ExternalSolver`)."""


@dataclass
class ExternalAnswer:
    """What one program run gave: ``status`` SAT, UNSAT, UNKNOWN, ``timeout`` or ``crash``.

    ``model`` (after SAT) holds the literals the program printed; ``seconds`` is
    the whole process's wall-clock time (start-up and parsing included);
    ``error`` explains a crash.
    """

    status: str
    model: list[int] | None = None
    seconds: float = 0.0
    error: str | None = None
    returncode: int | None = None


def _driver(program: str) -> tuple[str, tuple[str, ...]]:
    """(I/O style, options) of ``program``: a known solver's, else :data:`GENERIC`."""
    return PROGRAMS.get(os.path.basename(program), GENERIC)


def program_style(program: str) -> str:
    """The I/O style of ``program`` (a name or a path): ``result-file`` or ``stdout`` for a
    known solver (by its file name), ``competition`` for any other program.

    Raises ValueError for an empty name.
    """
    if not program:
        raise ValueError("name the external program after 'bin:'")
    return _driver(program)[0]


def writes_proof(program: str) -> bool:
    """Whether ``program`` (a name or a path) writes a DRAT proof when asked, decided by its
    file name as its I/O style is (``cadical``, ``kissat``).

    >>> writes_proof("cadical"), writes_proof("/opt/bin/kissat"), writes_proof("minisat")
    (True, True, False)
    """
    return os.path.basename(program) in PROOF_OPTIONS


def find_program(program: str) -> str | None:
    """The executable for ``program`` (a name looked up on PATH, or a path), or None."""
    if os.sep in program:
        return program if os.access(program, os.X_OK) and os.path.isfile(program) else None
    return shutil.which(program)


def program_problem(program: str) -> str | None:
    """Why ``program`` cannot be run (missing, not executable, a script whose ``#!``
    interpreter is missing), or None when it can."""
    found = find_program(program)
    if found is not None:
        return interpreter_problem(found)
    if os.sep not in program:
        return f"no {program!r} program on PATH"
    if not os.path.exists(program):
        return f"no such file {program!r}"
    if not os.path.isfile(program):
        return f"{program!r} is not a file"
    return f"{program!r} is not executable"


def interpreter_problem(path: str) -> str | None:
    """Why the script at ``path`` cannot start because of its ``#!`` line (the
    interpreter it names does not exist: a Windows line end, say), or None. The kernel
    reports that as 'No such file or directory', naming the script itself."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    # split on blanks only: a carriage return stays part of the name, as for the kernel
    name = re.split(rb"[ \t]", first[2:].rstrip(b"\n").lstrip(b" \t"), maxsplit=1)[0]
    if not name:
        return f"{path}: its #! line names no interpreter"
    if os.path.exists(name):
        return None
    shown = name.decode("utf-8", "backslashreplace")
    why = " (the line ends in a carriage return: Windows line ends)" if shown.endswith("\r") else ""
    return f"{path}: its #! interpreter {shown!r} does not exist{why}"


_COMMENT = re.compile(rb"[ \t]*c(?:[ \t].*)?\r?\n?", re.DOTALL)
"""A comment line as the output's reader sees one: ``c``, then a blank, a tab or nothing."""

USER_TEMP: str | None = None
"""The user's temporary folder where the process's own is a subfolder of it (a crosscheck
worker's, `crosscheck.pool`): what messages name as TMPDIR."""

_KEPT_TAIL = 65536
"""Bytes of a program's output and error output kept for messages."""


def _answer_text(handle: BinaryIO) -> str:
    """A program's standard output for the reader, without holding its comments: each
    ``c`` line but ``c UNKNOWN`` becomes an empty line, so line numbers hold while
    hundreds of megabytes of comments are not kept in memory. A line the reader would
    split further is kept as it is."""
    handle.seek(0)
    comment = _COMMENT.fullmatch
    kept = []
    blanks = 0  # comment lines since the last line kept
    for raw in handle:
        start = raw[:2]
        plain = start in (b"c ", b"c\t", b"c\n", b"c\r")
        if plain or (start[:1] in (b" ", b"\t") and comment(raw)):
            # one line end off (LF or CRLF): a lone CR left ends a line for the reader too
            body = raw[:-2] if raw.endswith(b"\r\n") else raw.rstrip(b"\n")
            if b"\r" not in body:  # kept: a `c UNKNOWN` as the reader splits it (str.split)
                said = body.decode("utf-8", "replace").split() if b"UNKNOWN" in body else []
                if said != ["c", "UNKNOWN"]:
                    blanks += 1
                    continue
        if blanks:
            kept.append(b"\n" * blanks)
            blanks = 0
        kept.append(raw)
    kept.append(b"\n" * blanks)
    return b"".join(kept).decode("utf-8", "replace")


def _read_tail(handle: BinaryIO) -> str:
    """The last `_KEPT_TAIL` bytes of a file, as text."""
    handle.seek(0, os.SEEK_END)
    handle.seek(max(0, handle.tell() - _KEPT_TAIL))
    return handle.read().decode("utf-8", "replace")


def _tail(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TAIL else "…" + text[-_TAIL:]


class _Killer:
    """Holds the running process so another thread can kill it (``interrupt``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        self.interrupted = False

    def kill(self) -> None:
        with self.lock:
            self.interrupted = True
            if self.process is not None and self.process.poll() is None:
                kill_tree(self.process)


def run_program(
    program: str,
    cnf_path: str,
    timeout: float | None = None,
    *,
    killer: _Killer | None = None,
    proof_path: str | None = None,
) -> ExternalAnswer:
    """Run ``program`` on the DIMACS file ``cnf_path``; kill it after ``timeout`` seconds.

    With ``proof_path``, a program that `writes_proof` is asked for a text DRAT proof
    there (ValueError for any other program). Never raises for the program's
    misbehaviour: a missing program, a bad exit code or unreadable output is a
    ``crash`` answer with an explanation.
    """
    style = program_style(program)
    if proof_path is not None and not writes_proof(program):
        raise ValueError(f"{program} writes no proof (only {', '.join(PROOF_OPTIONS)} do)")
    executable = find_program(program)
    if executable is None:
        return ExternalAnswer("crash", error=f"program {program!r} not found on PATH")
    options = _driver(program)[1]
    with tempfile.TemporaryDirectory(prefix="satkit-ext-") as folder:
        result_path = os.path.join(folder, "result.txt")
        argv = [executable, *options, cnf_path]
        if proof_path is not None:
            argv[-1:] = [*PROOF_OPTIONS[os.path.basename(program)], cnf_path, proof_path]
        if style == "result-file":
            argv.append(result_path)
        started = time.perf_counter()
        # output goes to files, not pipes: the run ends when the program exits, even if
        # a child it left behind still holds its output. The program stays in satkit's
        # process group, so what kills satkit's group (a terminal's hangup or Ctrl-C,
        # `timeout -s KILL`, a crosscheck worker's death) kills it too.
        with (
            open(os.path.join(folder, "stdout"), "w+b") as out_file,
            open(os.path.join(folder, "stderr"), "w+b") as err_file,
        ):
            process: subprocess.Popen[bytes] | None = None
            known = None  # (bound before the try: a Ctrl-C may land inside _children(),
            # which walks /proc, and the finally reads it: audit 27-C #1)
            try:
                # from the program's start to its end, any way out of this block kills
                # it: a signal while Popen runs is held (Popen could not return the
                # program), and one after that raises inside this try
                known = _children() if _adopt_orphans() else None
                try:
                    with signals_held() as caught, _STARTED_LOCK:
                        process = subprocess.Popen(
                            argv,
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL if style == "result-file" else out_file,
                            stderr=err_file,
                        )
                        _STARTED.add(process.pid)
                except OSError as exc:
                    if exc.errno in MACHINE_ERRNOS:  # not the program's fault: stop the batch
                        raise machine_failure(exc, f"start {program}") from None
                    why = interpreter_problem(executable) or exc
                    return ExternalAnswer("crash", error=f"cannot start {program}: {why}")
                if caught:  # stopped while starting it: raise that signal's way out now
                    signal.raise_signal(caught[0])
                if killer is not None:
                    with killer.lock:
                        killer.process = process
                        if killer.interrupted:
                            kill_tree(process)
                process.wait(timeout=timeout)
                ended = time.perf_counter()  # the program's time, not reading its output
            except subprocess.TimeoutExpired:
                assert process is not None
                kill_tree(process)
                process.wait()
                return ExternalAnswer("timeout", seconds=time.perf_counter() - started)
            except BaseException:  # Ctrl-C or SIGTERM: the program must not run on
                if process is not None:
                    kill_tree(process)
                    process.wait()
                raise
            finally:
                if killer is not None:
                    with killer.lock:
                        killer.process = None
                if process is not None:
                    with _STARTED_LOCK:
                        _STARTED.discard(process.pid)
                if known is not None:  # what it left running when it ended: no answer
                    kill_leftovers(known)  # comes from those (audit 21-C #4)
            answer_text = _answer_text(out_file)
            out_tail = _read_tail(out_file)
            errors = _read_tail(err_file)
        full = _no_space_left(folder)

        def crash(*args: Any, **kwargs: Any) -> ExternalAnswer:
            if full:  # its output may have been cut by a full TMPDIR: not the program's fault
                where = USER_TEMP or tempfile.gettempdir()
                raise EnvironmentFailure(
                    f"cannot keep the output of {program} in {where} (TMPDIR): "
                    "No space left on device"
                )
            return _crash(program, *args, **kwargs)

        seconds = ended - started
        if killer is not None and killer.interrupted:
            return ExternalAnswer("timeout", seconds=seconds, error="interrupted")
        code = process.returncode
        if style == "result-file":
            try:
                with open(result_path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                text = None
            if text is None or not text.strip():
                return crash(code, seconds, output=errors)
            reader = parse_minisat_result
        else:
            text = answer_text
            reader = parse_competition
        try:
            result = reader(text, program)
        except FormatError as exc:
            # the line is one of the program's output, not of the program file
            what = "its result file" if style == "result-file" else "its output"
            where = what if exc.line is None else f"line {exc.line} of {what}"
            reason = f"unreadable output ({where}: {exc.message})"
            return crash(code, seconds, reason, errors)
        said_unknown = _says_unknown(text)
        competition = style == "competition"
        if competition and code < 0:
            return crash(code, seconds, output=out_tail + errors)
        allowed = (_COMPETITION_EXIT_CODES if competition else _EXIT_CODES).get(result.status)
        if allowed is not None and code not in allowed:
            return crash(code, seconds, f"answered {result.status}", errors)
        if allowed is None and (code != 0 or not said_unknown):
            if competition:
                printed_s = any(line.split()[:1] == ["s"] for line in text_lines(text))
                what = "answered UNKNOWN" if printed_s else "printed no 's' line"
                return crash(code, seconds, what, f"{out_tail} {errors}", ": ")
            shown = (out_tail if style == "stdout" else "") + errors
            return crash(code, seconds, output=shown)
        return ExternalAnswer(result.status, result.model, seconds, None, code)


@contextlib.contextmanager
def signals_held() -> Iterator[list[int]]:
    """Note SIGINT, SIGTERM and SIGHUP instead of acting on them while the block runs.

    A KeyboardInterrupt raised inside ``Popen`` (after the program started, before
    ``Popen`` returned it) would leave the program running with no handle to kill it.
    The caller kills what it started and raises the noted signals again. Outside the
    main thread (where handlers cannot be set) the block runs as it is.
    """
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = {}
    for number in (signal.SIGINT, *STOP_SIGNALS):
        handler = signal.getsignal(number)
        # None: set outside Python (could not be put back); SIG_IGN: nothing to hold
        if handler is not None and handler != signal.SIG_IGN:
            previous[number] = signal.signal(number, lambda signum, _: caught.append(signum))
    try:
        yield caught
    finally:
        _put_back(list(previous.items()))


def _put_back(handlers: list[tuple[int, Any]]) -> None:
    """Set each (signal, handler), all of them even when one raises: putting the
    default Ctrl-C handler back can raise KeyboardInterrupt at once (a Ctrl-C held),
    and the handlers after it must still be put back."""
    if handlers:
        number, handler = handlers[0]
        try:
            signal.signal(number, handler)
        finally:
            _put_back(handlers[1:])


def _says_unknown(text: str) -> bool:
    """Whether a program's output says it does not know: an ``s UNKNOWN`` line, CaDiCaL's
    ``c UNKNOWN`` when a limit stops it, or MiniSat's ``INDET`` result."""
    for line in text_lines(text):
        if line.split() in (["s", "UNKNOWN"], ["c", "UNKNOWN"], ["INDET"]):
            return True
    return False


_SUBREAPER: bool | None = None  # whether this process adopts orphans (None: not tried yet)


def _adopt_orphans() -> bool:
    """Make this process a Linux child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), once:
    what a program leaves running when it exits (a wrapper's racing solvers, a detached
    ``( setsid prog & )``) becomes this process's child instead of init's, where
    `kill_leftovers` finds it. False where that is not available."""
    global _SUBREAPER
    if _SUBREAPER is None:
        _SUBREAPER = False
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError):
                libc = ctypes.CDLL(None, use_errno=True)
                _SUBREAPER = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _SUBREAPER


_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


def _children() -> set[int]:
    """The process ids of this process's children."""
    try:
        return {child.pid for child in psutil.Process().children()}
    except psutil.Error:
        return set()


_STARTED: set[int] = set()  # the programs `run_program` runs now, in every thread
_STARTED_LOCK = threading.Lock()  # held from a program's start until it is in _STARTED


def kill_leftovers(known: set[int]) -> None:
    """Kill (with what they started) and reap this process's children that are not in
    ``known``: after a program ends, those are what it left running, adopted here as the
    subreaper (`_adopt_orphans`) — except the programs `run_program` started meanwhile in
    other threads (review 21 #4). A child that other code started in another thread
    meanwhile cannot be told from an adopted one, and neither can a process that a
    program still running in another thread detached."""
    with _STARTED_LOCK:
        for pid in _children() - known - _STARTED:
            kill_descendants(pid)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def kill_tree(process: subprocess.Popen[bytes]) -> None:
    """Kill a program and every process it started, and wait until they are dead.

    A wrapper script that runs the real solver without ``exec`` is the common case:
    killing the script alone leaves the solver running (and holding the output).
    """
    kill_descendants(process.pid)  # first, while the tree still hangs together
    with contextlib.suppress(OSError):
        process.kill()


def kill_descendants(pid: int) -> None:
    """Kill the process group that ``pid`` leads (when it leads one) and every process
    descended from ``pid``, with the groups they lead; wait until they are dead.

    A crosscheck worker that is killed takes the programs it runs with it here, also
    those that moved to a process group of their own.
    """
    try:
        family = psutil.Process(pid).children(recursive=True)
    except psutil.Error:  # already gone (or not ours to inspect)
        family = []
    for leader in (pid, *(member.pid for member in family)):
        with contextlib.suppress(OSError):
            if os.getpgid(leader) == leader:
                os.killpg(leader, signal.SIGKILL)
    for member in family:
        with contextlib.suppress(psutil.Error):
            member.kill()
    # orphans are reaped by whoever adopts them (maybe never, in a container): dead
    # enough once they are zombies
    for member in family:
        for _ in range(1000):
            try:
                if member.status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.Error:
                break
            time.sleep(0.001)


def _no_space_left(folder: str) -> bool:
    """Whether the file system holding ``folder`` has no space left for us."""
    try:
        return os.statvfs(folder).f_bavail == 0
    except (AttributeError, OSError):
        return False


def _crash(
    program: str, code: int | None, seconds: float, reason: str = "", output: str = "",
    between: str = " ",
) -> ExternalAnswer:  # fmt: skip
    """A crash answer: ``PROGRAM exited with code N: REASON TAIL`` (or ``was killed by
    signal N``), where only the output's tail is cut, never the reason (shrinking tells
    crashes apart by it: `crosscheck.shrink.crash_kind`)."""
    message = f"{program} exited with code {code}"
    if code is not None and code < 0:
        message = f"{program} was killed by signal {-code}"
    shown = _tail(output)
    if reason:
        message += f": {reason}" + (f"{between}{shown}" if shown else "")
    elif shown:
        message += f": {shown}"
    return ExternalAnswer("crash", None, seconds, message, code)


def write_clauses(path: str, nvars: int, clauses: Iterable[Sequence[int]]) -> None:
    """Write plain DIMACS (header and clauses only) to ``path``: what external programs read."""
    clauses = clauses if isinstance(clauses, list) else list(clauses)
    top = max([nvars, *(abs(lit) for clause in clauses for lit in clause)], default=0)
    try:
        _write_clauses(path, top, clauses)
    except OSError as exc:  # a full disk is the machine's fault, not the caller's file's
        where = USER_TEMP or tempfile.gettempdir()
        doing = f"write the DIMACS export for the solver programs in {where} (TMPDIR)"
        raise machine_failure(exc, doing) from None


def _write_clauses(path: str, top: int, clauses: list[Sequence[int]]) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(f"p cnf {top} {len(clauses)}\n")
        chunk: list[str] = []
        for clause in clauses:
            chunk.append(format_clause(clause))
            if len(chunk) >= 8192:
                handle.write("\n".join(chunk) + "\n")
                chunk.clear()
        if chunk:
            handle.write("\n".join(chunk) + "\n")


def _checked_assumptions(assumptions: Iterable[int]) -> list[int]:
    """The assumptions as non-zero int literals (ValueError / TypeError otherwise)."""
    try:
        return checked_clause(assumptions)
    except ValueError as exc:
        raise ValueError(str(exc).replace("a literal must", "an assumption must")) from None


class ExternalSolver:
    """An external program with the PySAT surface (``solve``, ``get_model``, ``delete``, …).

    Every solve call exports the clauses (plus the assumptions as unit
    clauses) to a temporary DIMACS file and runs the program on it.
    ``solve_limited`` honours `time_budget` and `interrupt` by killing the
    process; ``solve`` waits as long as it takes. A crash raises `ProgramFailed`.
    After UNSAT under assumptions, the core is all the assumptions (a
    program gives no smaller one).
    """

    def __init__(self, program: str, bootstrap_with: Any = None) -> None:
        program_style(program)  # ValueError for an empty name
        problem = program_problem(program)
        if problem is not None:
            raise ValueError(f"solver 'bin:{program}' is not available: {problem}")
        self.program = program
        self._clauses: list[list[int]] = []
        self._nvars = 0
        self._killer = _Killer()
        self._budget: float | None = None
        self._status: bool | None = None
        self._model: list[int] | None = None
        self._core: list[int] | None = None
        self._seconds = 0.0
        self._calls = 0
        if bootstrap_with is not None:
            self.append_formula(bootstrap_with)

    def __enter__(self) -> ExternalSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.delete()

    def delete(self) -> None:
        """Forget the clauses (there is no process to free between calls)."""
        self._clauses = []

    def add_clause(self, clause: Iterable[int], no_return: bool = True) -> None:
        """Add one clause (non-zero ints).

        :raises ValueError: for a literal 0 or beyond 2^31-1; TypeError for a non-integer
            literal (as `dpll.Solver` does).
        """
        lits = checked_clause(clause)
        self._nvars = max([self._nvars, *(abs(lit) for lit in lits)])
        self._clauses.append(lits)

    def append_formula(self, formula: Any, no_return: bool = True) -> None:
        """Add a list of clauses, a ``formats.Formula`` or any ``pysat.formula`` object
        (``CNF``, ``And``, ``XOr``, …), read as `dpll.Solver` reads it.

        A ``CNFPlus`` with AtMost constraints is refused (NotImplementedError): a program
        reads DIMACS clauses only. Nothing is added when a clause is refused.
        """
        if has_atmosts(formula):
            raise NotImplementedError(NO_ATMOST)
        batch = [checked_clause(clause) for clause in clauses_of(formula)]
        self._nvars = max(
            [self._nvars, declared_vars(formula), *(abs(lit) for c in batch for lit in c)]
        )
        self._clauses.extend(batch)

    def supports_atmost(self) -> bool:
        """False: a program reads DIMACS clauses, not AtMost constraints."""
        return False

    def add_atmost(
        self, lits: Iterable[int], k: int, weights: Iterable[int] = (), no_return: bool = True
    ) -> None:
        """Not supported: raises NotImplementedError (encode it, e.g. ``pysat.card``)."""
        raise NotImplementedError(NO_ATMOST)

    def time_budget(self, seconds: float | None = None) -> None:
        """Limit each following `solve_limited` call to ``seconds`` (None: no limit)."""
        self._budget = seconds if seconds is not None and seconds > 0 else None

    def interrupt(self) -> None:
        """Kill the running (or next) `solve_limited` call's process; it returns None."""
        self._killer.kill()

    def clear_interrupt(self) -> None:
        """Allow solving again after `interrupt`."""
        self._killer.interrupted = False

    def solve(self, assumptions: Iterable[int] = ()) -> bool:
        """Run the program to the end: True (SAT) or False (UNSAT)."""
        answer = self._run(_checked_assumptions(assumptions), None, _Killer())
        if answer is None:
            raise ProgramFailed(f"{self.program} gave no answer")
        return answer

    def solve_limited(
        self, assumptions: Iterable[int] = (), expect_interrupt: bool = False
    ) -> bool | None:
        """Like `solve`, but None when `time_budget` runs out or `interrupt` is called."""
        return self._run(_checked_assumptions(assumptions), self._budget, self._killer)

    def _run(self, assumptions: list[int], timeout: float | None, killer: _Killer) -> bool | None:
        with tempfile.TemporaryDirectory(prefix="satkit-ext-") as folder:
            path = os.path.join(folder, "in.cnf")
            write_clauses(path, self._nvars, [*self._clauses, *([lit] for lit in assumptions)])
            answer = run_program(self.program, path, timeout, killer=killer)
        self._calls += 1
        self._seconds += answer.seconds
        if answer.status == "crash":
            raise ProgramFailed(answer.error or f"{self.program} crashed")
        self._model = self._core = None
        self._status = {"SAT": True, "UNSAT": False}.get(answer.status)
        if self._status is True:
            self._model = sorted(answer.model or [], key=abs)
        elif self._status is False:
            self._core = list(assumptions)
        return self._status

    def get_status(self) -> bool | None:
        """The last answer (None: unknown or never solved)."""
        return self._status

    def get_model(self) -> list[int] | None:
        """After SAT: the literals the program printed, sorted by variable."""
        return None if self._model is None else list(self._model)

    def get_core(self) -> list[int] | None:
        """After UNSAT: the assumptions (all of them); None without any, as in PySAT."""
        return list(self._core) if self._core else None

    def accum_stats(self) -> dict[str, float]:
        """Calls made and their total wall-clock time (a program reports no counters here)."""
        return {"calls": self._calls, "seconds": round(self._seconds, 6)}

    def nof_vars(self) -> int:
        """The largest variable seen."""
        return self._nvars

    def nof_clauses(self) -> int:
        """The number of clauses added."""
        return len(self._clauses)
