"""The two standard pictures of a solver comparison, in one picture: a cactus plot and a scatter.

The picture's format is its file's suffix: ``.png``, ``.svg`` or ``.pdf``
(:func:`plot_format`; any other suffix is refused before anything runs).

- Cactus (left): for each solver, its solve times sorted ascending; point k
  says "k instances were solved within this time each". Further right is more
  instances solved, lower is faster.
- Scatter (right): one point per instance, MiniSat's time across, ours up;
  the diagonals mark 1x, 10x and 100x. Runs that did not finish sit on the
  timeout line.

matplotlib is the optional ``plot`` extra: :func:`load_pyplot` raises
:class:`PlotUnavailable` with the install command when it is missing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

from crosscheck.report import REFERENCES
from formats.errors import count
from formats.streams import atomic_output
from maze.render import NO_DATE, import_pyplot, missing_module

_FLOOR = 1e-5  # seconds: log axes need a positive value


PLOT_FORMATS = ("png", "svg", "pdf")
"""The picture formats :func:`write_plots` writes, chosen by the file's suffix."""


def plot_format(path: str | os.PathLike[str]) -> str:
    """``png``, ``svg`` or ``pdf`` from a file name's suffix (any case); ValueError otherwise.

    >>> plot_format("runs.SVG")
    'svg'
    """
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix in ("gz", "bz2", "xz"):
        raise ValueError(
            f"{os.fspath(path)!r}: plots are not written compressed: use .png, .svg or .pdf"
        )
    if suffix not in PLOT_FORMATS:
        raise ValueError(
            f"cannot tell the picture format from {os.fspath(path)!r}: use .png, .svg or .pdf"
        )
    return suffix


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def load_pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or :class:`PlotUnavailable`."""
    try:
        return import_pyplot()
    except ImportError as exc:
        if not missing_module(exc):
            broken = f"--plot: matplotlib is installed but does not load: {exc}"
            raise PlotUnavailable(broken) from None
        raise PlotUnavailable(
            "--plot needs matplotlib: pip install 'dimacs-satkit[plot]'"
        ) from None


def _solved(run: dict[str, Any]) -> bool:
    return run["status"] in ("SAT", "UNSAT")


def cactus_series(records: Iterable[dict[str, Any]], solvers: Sequence[str]) -> dict[str, list]:
    """Solver -> its solve times (solved runs only), sorted ascending."""
    series: dict[str, list[float]] = {name: [] for name in solvers}
    for record in records:
        for name, run in record.get("runs", {}).items():
            if name in series and _solved(run):
                series[name].append(max(run["seconds"], _FLOOR))
    return {name: sorted(times) for name, times in series.items()}


def scatter_points(
    records: Iterable[dict[str, Any]], ours: str, reference: str, cap: float
) -> list[tuple[float, float, str]]:
    """(reference time, our time, answer) per instance both ran; unfinished runs at ``cap``."""
    points = []
    for record in records:
        runs = record.get("runs", {})
        if ours not in runs or reference not in runs:
            continue
        mine, theirs = runs[ours], runs[reference]
        x = max(theirs["seconds"], _FLOOR) if _solved(theirs) else cap
        y = max(mine["seconds"], _FLOOR) if _solved(mine) else cap
        points.append((x, y, record.get("answer") or "unknown"))
    return points


def plot_point(record: dict[str, Any]) -> dict[str, Any]:
    """What `write_plots` draws of a record (a batch keeps this much of each for --plot)."""
    runs = {
        name: {"status": run["status"], "seconds": run["seconds"]}
        for name, run in record.get("runs", {}).items()
    }
    return {"timeout": record.get("timeout"), "answer": record.get("answer"), "runs": runs}


def write_plots(
    records: Sequence[dict[str, Any]], path: str | os.PathLike[str], *, solvers: Sequence[str]
) -> None:
    """Write the cactus plot and the scatter (when ours and MiniSat both ran) to ``path``,
    atomically, as PNG, SVG or PDF by its suffix (ValueError for another suffix)."""
    fmt = plot_format(path)
    plt = load_pyplot()
    from matplotlib.ticker import MaxNLocator
    names = list(dict.fromkeys([*solvers, *(n for r in records for n in r.get("runs", {}))]))
    reference = next((name for name in REFERENCES if name in names), None)
    ours = next((name for name in names if name.startswith("dpll")), None)
    timeout = max((float(r.get("timeout") or 0) for r in records), default=0.0) or 60.0
    with_scatter = reference is not None and ours is not None
    size = (14.5, 5.5) if with_scatter else (7, 5.5)  # (the scatter's legend sits beside it)
    figure, axes = plt.subplots(1, 2 if with_scatter else 1, figsize=size)
    cactus = axes[0] if with_scatter else axes
    plotted = 0
    series = cactus_series(records, names)
    for name, times in series.items():
        if times:
            cactus.plot(range(1, len(times) + 1), times, marker=".", markersize=3, label=name)
            plotted += 1
    if not plotted:  # (no curve, no legend: matplotlib would warn on stderr, past --quiet)
        cactus.text(0.5, 0.5, "no instance solved", ha="center", transform=cactus.transAxes)
    cactus.set_yscale("log")
    cactus.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))  # (no 1.5)
    if plotted:
        drawn = [t for times in series.values() for t in times]
        _seconds_ticks(cactus, min(drawn), max(drawn), x=False)
        # half an instance each side: one instance alone had ticks 0.945 … 1.050
        cactus.set_xlim(0.5, max(len(times) for times in series.values()) + 0.5)
    cactus.set_xlabel("instances solved")
    cactus.set_ylabel("solve time per instance (s, log)")
    cactus.set_title(f"cactus: {count(len(records), 'instance')}, timeout {timeout:g} s")
    cactus.grid(True, which="both", alpha=0.3)
    if plotted:
        cactus.legend(loc="upper left", fontsize="small")
    if with_scatter:
        assert ours is not None and reference is not None
        points = scatter_points(records, ours, reference, timeout)
        _scatter(axes[1], points, ours, reference, timeout)
    figure.tight_layout()
    with atomic_output(path, binary=True) as handle:
        figure.savefig(handle, format=fmt, dpi=110, metadata=NO_DATE.get(fmt))
    plt.close(figure)


def _scatter(axis: Any, points: list, ours: str, reference: str, cap: float) -> None:
    colours = {"SAT": "tab:blue", "UNSAT": "tab:red", "unknown": "tab:gray"}
    for answer, colour in colours.items():
        for finished in (True, False):
            chosen = [(x, y) for x, y, a in points if a == answer and (cap in (x, y)) != finished]
            if not chosen:
                continue
            label = f"{answer}{'' if finished else ', unfinished'} ({len(chosen)})"
            axis.scatter(*zip(*chosen, strict=True), s=14 if finished else 22, c=colour,
                         alpha=0.7, marker="o" if finished else "x", label=label)  # fmt: skip
    values = [v for x, y, _a in points for v in (x, y)] or [_FLOOR, cap]
    unfinished = cap in values
    low, high = min(values) / 2, max(values) * (1.5 if unfinished else 2)
    for factor, style in ((1, "-"), (10, "--"), (100, ":")):
        axis.plot([low, high], [low * factor, high * factor], "k" + style, lw=0.8,
                  label="1x" if factor == 1 else f"{factor}x")  # fmt: skip
    if unfinished:  # the runs that did not finish sit on these lines
        axis.axhline(cap, color="gray", lw=0.6)
        axis.axvline(cap, color="gray", lw=0.6)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlim(low, high)
    axis.set_ylim(low, high)
    _seconds_ticks(axis, low, high)
    axis.set_xlabel(f"{reference} solve time (s, log)")
    axis.set_ylabel(f"{ours} solve time (s, log)")
    axis.set_title(f"{ours} against {reference}, per instance")
    axis.grid(True, which="both", alpha=0.3)
    # beside the axes: inside, any corner covers points on some run (lower right covered
    # SATLIB instances where MiniSat was slower), and loc="best" is slow over thousands of
    # points and says so on stderr
    axis.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small")


def _seconds_ticks(axis: Any, low: float, high: float, *, x: bool = True) -> None:
    """Label the log y axis (and the x axis unless not ``x``) in plain seconds (``0.002``,
    ``0.05``, ``1``), with ticks at 1, 2 and 5 of each decade labelled too when the range
    spans under two decades: matplotlib's default labelled every minor tick as
    ``2×10⁻³``, and on an axis of 1.5 decades they ran into each other (audit 21-C #8; the
    cactus's y axis too, review 21 #6)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    label = FuncFormatter(lambda value, _position: f"{value:g}")
    few = math.log10(high / low) < 2
    for side in (axis.xaxis, axis.yaxis) if x else (axis.yaxis,):
        side.set_major_locator(LogLocator(base=10))
        side.set_major_formatter(label)
        side.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0) if few else "auto"))
        side.set_minor_formatter(label if few else NullFormatter())
