"""Benchmark: satkit's DIMACS reader against PySAT's (`CNF(from_file=…)`), speed and peak memory.

What it measures, in one run:

- **SATLIB** (../shared/bench/satlib, 2,511 files): our `read_dimacs` on every
  file, and — on the files PySAT's reader accepts (it rejects the `%` trailer
  and clauses spread over lines) — ours and PySAT's on that same subset.
- **Two generated ~100 MB files** (fixed seed, written to a temporary folder):
  random 3-SAT over 1,000,000 variables, and a mixed-length file (clauses of
  1–12 literals) over 777,777 variables, so that neither the variable count
  nor the clause shape favours one reader. One clause per line, so PySAT
  reads both.

Speed: the readers run interleaved (ours, PySAT, PySAT, ours, …) for several
repetitions in this process, with the previous result freed and the garbage
collector run before each timing; the table gives medians. MB/s counts the
bytes on disk (10^6 bytes per MB). "speed vs PySAT" is our MB/s divided by
PySAT's on the same files (> 1 means we are faster).

Peak memory: each reader parses each big file in a fresh subprocess, which
records its peak resident set size after its imports (the baseline) and after
parsing; the difference is the parse's peak. The peak is VmHWM from
/proc/self/status, not `ru_maxrss`: on Linux a child's `ru_maxrss` starts at
the parent's size at fork time, which hides the child's own growth. The peak
is compared with the memory of the clause lists the reader returned, counted
with `sys.getsizeof`: the outer list, every clause list, and every int object
outside CPython's small-int cache (-5..256; each parsed literal is its own int
object in both readers). Target from the issue: at least as fast as PySAT, and
peak under 3x the clause lists.

A third column, "json.loads floor", bounds what any reader written in Python
can reach: the same clauses, already rendered as JSON text in memory, turned
into lists by ``json.loads`` with the garbage collector paused (no file, no
comments, no checks, no line numbers). ``json.loads`` is the fastest builder
of int lists from text in the standard library (it is what our reader runs
on each block); a reader cannot be faster than its own inner step, so where
the floor is slower than PySAT's C reader, no pure-Python reader beats PySAT.

Usage::

    python bench/parse.py            # the full run (the figures in bench/README.md)
    python bench/parse.py --quick    # 3 files per family, ~5 MB generated files
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SATLIB = ROOT.parent / "shared" / "bench" / "satlib"
MB = 1_000_000

# -- generated inputs -----------------------------------------------------------------------

MIXED_LENGTHS = [1, 2, 3, 4, 5, 6, 8, 12]
MIXED_WEIGHTS = [2, 30, 40, 10, 8, 5, 3, 2]


def generate(path: Path, nvars: int, size_mb: float, mixed: bool, seed: int) -> None:
    """Write a random CNF of about ``size_mb`` MB to ``path`` (deterministic for a seed).

    Variables are drawn uniformly with replacement, signs with probability 1/2;
    clause lengths are 3, or (``mixed``) drawn from MIXED_LENGTHS/MIXED_WEIGHTS.
    """
    rng = random.Random(seed)
    target = int(size_mb * MB)
    population = range(1, nvars + 1)
    body = path.with_suffix(".body")
    written = clauses = 0
    with open(body, "w") as out:
        while written < target:
            batch = 20_000
            lengths = rng.choices(MIXED_LENGTHS, MIXED_WEIGHTS, k=batch) if mixed else [3] * batch
            variables = rng.choices(population, k=sum(lengths))
            signs = rng.getrandbits(len(variables))
            lines = []
            position = 0
            for length in lengths:
                parts = []
                for var in variables[position : position + length]:
                    parts.append(str(-var if signs & 1 else var))
                    signs >>= 1
                position += length
                parts.append("0\n")
                lines.append(" ".join(parts))
            chunk = "".join(lines)
            out.write(chunk)
            written += len(chunk)
            clauses += batch
    with open(path, "w") as out:
        kind = "mixed clause lengths" if mixed else "random 3-SAT"
        out.write(f"c bench/parse.py: {kind}, seed {seed}\n")
        out.write(f"p cnf {nvars} {clauses}\n")
        with open(body) as source:
            shutil.copyfileobj(source, out, 1 << 22)
    body.unlink()


# -- the two readers ------------------------------------------------------------------------


def ours(path: str) -> list[list[int]]:
    from formats.dimacs import read_dimacs

    return read_dimacs(path).clauses


def pysat(path: str) -> list[list[int]]:
    from pysat.formula import CNF

    return CNF(from_file=path).clauses


READERS: dict[str, Callable[[str], list[list[int]]]] = {"satkit": ours, "pysat": pysat}


def pysat_reads(path: Path) -> bool:
    """True when PySAT's reader accepts the file and gives our clauses."""
    try:
        return pysat(str(path)) == ours(str(path))
    except ValueError:
        return False


def clause_list_bytes(clauses: list[list[int]]) -> int:
    """sys.getsizeof of the outer list, each clause list and each non-cached int."""
    size = sys.getsizeof(clauses)
    getsizeof = sys.getsizeof
    for clause in clauses:
        size += getsizeof(clause)
        for lit in clause:
            if lit < -5 or lit > 256:
                size += getsizeof(lit)
    return size


# -- timing ---------------------------------------------------------------------------------


def time_once(reader: Callable[[str], list[list[int]]], paths: Sequence[Path]) -> float:
    gc.collect()
    start = time.perf_counter()
    for path in paths:
        result = reader(str(path))
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def interleaved(
    paths: Sequence[Path], readers: Sequence[str], repetitions: int
) -> dict[str, float]:
    """Median seconds per reader over ``repetitions`` rounds; the order flips every round."""
    times: dict[str, list[float]] = {name: [] for name in readers}
    for round_ in range(repetitions):
        order = list(readers) if round_ % 2 == 0 else list(reversed(readers))
        for name in order:
            times[name].append(time_once(READERS[name], paths))
            progress(f"  {name} round {round_ + 1}: {times[name][-1]:.2f} s")
    return {name: statistics.median(values) for name, values in times.items()}


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


def json_floor(paths: Sequence[Path], repetitions: int) -> float:
    """Median seconds for ``json.loads`` alone to build every file's clause lists.

    The JSON texts are made beforehand (from our parse) and kept in memory; only
    the ``json.loads`` calls are timed, with the garbage collector paused.
    """
    texts = [json.dumps(ours(str(path)), separators=(",", ":")) for path in paths]
    times = []
    loads = json.loads
    for _ in range(repetitions):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            for text in texts:
                result = loads(text)
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
        del result
    return statistics.median(times)


# -- memory (in a fresh subprocess per reader and file) ---------------------------------------


def peak_rss() -> int:
    """The process's peak resident set size in bytes.

    On Linux this is VmHWM from /proc/self/status: ``ru_maxrss`` also counts
    the memory the *parent* had when it forked this child (the kernel keeps the
    high-water mark across fork + exec), which hid every child's growth behind
    the benchmark's own size. Elsewhere it falls back to ``ru_maxrss``.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def child(reader: str, path: str) -> None:
    """Run in a subprocess: parse once and print peak growth and result size as JSON."""
    import pysat.formula  # noqa: F401

    import formats.dimacs  # noqa: F401 - both readers' imports are in the baseline

    baseline = peak_rss()
    clauses = READERS[reader](path)
    peak = peak_rss()
    result = {
        "peak_bytes": peak - baseline,
        "result_bytes": clause_list_bytes(clauses),
        "clauses": len(clauses),
    }
    print(json.dumps(result))


def memory(reader: str, path: Path) -> dict[str, int]:
    command = [sys.executable, __file__, "--child", reader, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout)


# -- the run --------------------------------------------------------------------------------


def satlib_files(quick: bool) -> list[Path]:
    if not SATLIB.is_dir():
        sys.exit(f"error: {SATLIB} is absent (../shared beside the checkout)")
    files = []
    for family in sorted(p for p in SATLIB.iterdir() if p.is_dir()):
        names = sorted(family.glob("*.cnf"))
        files += names[:3] if quick else names
    return files


def mbs(paths: Sequence[Path], seconds: float) -> float:
    return sum(p.stat().st_size for p in paths) / MB / seconds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="subset and ~5 MB files")
    parser.add_argument("--repetitions", type=int, default=None, help="rounds per timing")
    parser.add_argument("--size-mb", type=float, default=None, help="size of each generated file")
    parser.add_argument("--seed", type=int, default=2, help="seed of the generated files")
    parser.add_argument("--keep", type=Path, default=None, help="folder to keep/reuse files in")
    parser.add_argument("--child", nargs=2, metavar=("READER", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    sys.path.insert(0, str(ROOT))
    repetitions = args.repetitions or (3 if args.quick else 5)
    size_mb = args.size_mb or (5 if args.quick else 100)

    folder = args.keep or Path(tempfile.mkdtemp(prefix="satkit-bench-parse-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        run(folder, args.quick, repetitions, size_mb, args.seed)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def run(folder: Path, quick: bool, repetitions: int, size_mb: float, seed: int) -> None:
    import pysat

    generated = [
        (f"random 3-SAT, 1,000,000 vars, {size_mb:g} MB", 1_000_000, False),
        (f"mixed lengths 1-12, 777,777 vars, {size_mb:g} MB", 777_777, True),
    ]
    big: list[tuple[str, Path]] = []
    for label, nvars, mixed in generated:
        path = folder / f"gen-{nvars}-{'mixed' if mixed else '3sat'}-{size_mb:g}MB-s{seed}.cnf"
        if not path.exists():
            progress(f"generating {path.name}")
            generate(path, nvars, size_mb, mixed, seed)
        big.append((label, path))

    files = satlib_files(quick)
    progress(f"checking which of {len(files)} SATLIB files PySAT reads")
    readable = [path for path in files if pysat_reads(path)]
    for _, path in big:
        assert pysat_reads(path), path

    rows = []
    progress("SATLIB, all files, satkit")
    alone = interleaved(files, ["satkit"], repetitions)
    rows.append((f"SATLIB, all {len(files)} files", files, alone["satkit"], None))
    progress("SATLIB, files PySAT reads")
    both = interleaved(readable, ["satkit", "pysat"], repetitions)
    both["floor"] = json_floor(readable, repetitions)
    rows.append((f"SATLIB, the {len(readable)} PySAT reads", readable, both["satkit"], both))
    for label, path in big:
        progress(label)
        both = interleaved([path], ["satkit", "pysat"], repetitions)
        both["floor"] = json_floor([path], repetitions)
        rows.append((label, [path], both["satkit"], both))

    print(
        f"python {sys.version.split()[0]}, python-sat {pysat.__version__}, "
        f"{repetitions} interleaved rounds, medians\n"
    )
    print(
        "| input | MB | satkit s | satkit MB/s | PySAT s | PySAT MB/s | speed vs PySAT "
        "| json.loads floor s | floor vs PySAT |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, paths, ours_s, both in rows:
        size = sum(p.stat().st_size for p in paths) / MB
        if both is None:
            print(
                f"| {label} | {size:.1f} | {ours_s:.2f} | {mbs(paths, ours_s):.1f} "
                "| – | – | – | – | – |"
            )
        else:
            theirs, floor = both["pysat"], both["floor"]
            print(
                f"| {label} | {size:.1f} | {ours_s:.2f} | {mbs(paths, ours_s):.1f} | "
                f"{theirs:.2f} | {mbs(paths, theirs):.1f} | {theirs / ours_s:.2f}x | "
                f"{floor:.2f} | {theirs / floor:.2f}x |"
            )

    largest = max(files, key=lambda p: p.stat().st_size)
    targets = [*big, (f"SATLIB {largest.name}", largest)]
    print("\n| input | reader | peak MB | clause lists MB | peak / clause lists |")
    print("|---|---|---|---|---|")
    for label, path in targets:
        for reader in ("satkit", "pysat"):
            if reader == "pysat" and not pysat_reads(path):
                continue
            progress(f"memory: {reader} on {path.name}")
            figures = memory(reader, path)
            peak, lists = figures["peak_bytes"], figures["result_bytes"]
            print(
                f"| {label} | {reader} | {peak / MB:.0f} | {lists / MB:.0f} | {peak / lists:.2f}x |"
            )


if __name__ == "__main__":
    main()
