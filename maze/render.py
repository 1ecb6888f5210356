"""Pictures of a maze: DOT text always; SVG/PNG through Graphviz, or networkx + matplotlib.

The picture shows every node (START marked, treasure nodes filled and
labelled with their treasures), every exit (two-way exits as one line with two
arrow heads, one-way exits with one), and — given a path — each move drawn in
red and numbered with its step(s).

SVG and PNG come from Graphviz's ``dot`` program when it is on PATH (the DOT
asks for the ``neato`` layout, which suits mazes); otherwise from networkx and
matplotlib (the optional ``plot`` extra), imported only when needed.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import textwrap
from collections.abc import Sequence
from typing import Any

from formats.streams import atomic_output, strip_compression
from maze.model import START, Maze

FORMATS = ("dot", "svg", "png")
"""The output formats :func:`render` writes (chosen by the file's suffix)."""

_START_FILL = "#cfe3ff"
_TREASURE_FILL = "#ffe08a"
_PATH_COLOR = "#d62728"


NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}
"""savefig metadata that leaves out the date: the same input draws the same file."""


def import_pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, with the SVG ids fixed (the same input draws
    the same file); ImportError when matplotlib is missing or does not load."""
    import matplotlib

    matplotlib.use("Agg")
    if matplotlib.rcParams["svg.hashsalt"] is None:
        matplotlib.rcParams["svg.hashsalt"] = "satkit"
    import matplotlib.pyplot as plt

    return plt


def missing_module(exc: ImportError) -> bool:
    """Whether ``exc`` says the plot extra is not installed, rather than installed and
    broken (matplotlib 3.7.0 beside numpy 2: "pip install" was the wrong advice)."""
    return isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in (
        "matplotlib",
        "networkx",
        "scipy",
    )


_PLOT_EXTRA = "pip install 'dimacs-satkit[plot]': matplotlib, networkx and scipy"


class RenderError(RuntimeError):
    """A picture could not be made (no renderer available, Graphviz failed, …)."""


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped + '"'


def _edges(maze: Maze) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(two-way pairs, one-way moves), each in node order, self-loops as one-way."""
    moves = {(a, b) for a in maze.nodes for b in maze.exits_of(a)}
    order = {node: i for i, node in enumerate(maze.nodes)}
    two_way, one_way = [], []
    for a, b in sorted(moves, key=lambda ab: (order[ab[0]], order[ab[1]])):
        if a != b and (b, a) in moves:
            if order[a] < order[b]:
                two_way.append((a, b))
        else:
            one_way.append((a, b))
    return two_way, one_way


def _steps_by_move(path: Sequence[str] | None) -> dict[tuple[str, str], list[int]]:
    steps: dict[tuple[str, str], list[int]] = {}
    for time in range(1, len(path or ())):
        steps.setdefault((path[time - 1], path[time]), []).append(time)  # type: ignore[index]
    return steps


def _title(maze: Maze, path: Sequence[str] | None) -> str:
    title = f"{maze.name}: {len(maze.nodes)} nodes, K={maze.steps}"
    if path:
        title += "\npath: " + " ".join(path)
    return title


def maze_dot(maze: Maze, path: Sequence[str] | None = None) -> str:
    """The maze (and path) as Graphviz DOT text."""
    lines = [
        "digraph maze {",
        f"  graph [layout=neato, overlap=false, splines=true, sep=0.3, "
        f"labelloc=t, fontname=Helvetica, label={_quote(_title(maze, path))}];",
        "  node [shape=ellipse, style=filled, fillcolor=white, fontname=Helvetica];",
        "  edge [color=gray45, arrowsize=0.7];",
    ]
    for node in maze.nodes:
        treasures = maze.treasures_of(node)
        label = node + ("\n" + " ".join(treasures) if treasures else "")
        attributes = [f"label={_quote(label)}"]
        if node == START:
            attributes += ["shape=doublecircle", f'fillcolor="{_START_FILL}"']
        elif treasures:
            attributes.append(f'fillcolor="{_TREASURE_FILL}"')
        lines.append(f"  {_quote(node)} [{', '.join(attributes)}];")
    two_way, one_way = _edges(maze)
    for a, b in two_way:
        lines.append(f"  {_quote(a)} -> {_quote(b)} [dir=both];")
    for a, b in one_way:
        lines.append(f"  {_quote(a)} -> {_quote(b)};")
    for (a, b), times in _steps_by_move(path).items():
        label = ",".join(map(str, times))
        lines.append(
            f"  {_quote(a)} -> {_quote(b)} [color={_quote(_PATH_COLOR)}, penwidth=2.5, "
            f"fontcolor={_quote(_PATH_COLOR)}, label={_quote(label)}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def output_format(path: str | os.PathLike[str]) -> str:
    """``dot``, ``svg`` or ``png`` from a file name's suffix (``.gv`` counts as DOT), looking
    through a compression suffix (``x.svg.gz`` is SVG, written compressed).

    >>> output_format("maze.svg"), output_format("maze.dot.gz"), output_format("m.gv")
    ('svg', 'dot', 'dot')
    """
    name = strip_compression(os.fspath(path))  # (one suffix, as the writer compresses once)
    suffix = os.path.splitext(name)[1].lower().lstrip(".")
    suffix = "dot" if suffix == "gv" else suffix
    if suffix not in FORMATS:
        raise RenderError(
            f"cannot tell the picture format from {os.fspath(path)!r}: use .dot, .svg or .png"
        )
    return suffix


def render(
    maze: Maze,
    out: str | os.PathLike[str],
    path: Sequence[str] | None = None,
    *,
    fmt: str | None = None,
    engine: str = "auto",
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> str:
    """Write a picture of ``maze`` (and ``path``) to ``out`` atomically; return the engine used.

    ``fmt``: ``dot``/``svg``/``png`` (default: from the suffix). ``engine``:
    ``auto`` (Graphviz if on PATH, else matplotlib), ``graphviz`` or
    ``matplotlib``. Returns ``"dot-text"``, ``"graphviz"`` or ``"matplotlib"``.
    """
    fmt = fmt or output_format(out)
    if fmt not in FORMATS:
        raise RenderError(f"unknown picture format {fmt!r} (valid: {', '.join(FORMATS)})")
    if fmt == "dot":
        with atomic_output(out, inputs=tuple(inputs)) as handle:
            handle.write(maze_dot(maze, path))
        return "dot-text"
    if engine not in ("auto", "graphviz", "matplotlib"):
        raise RenderError(f"unknown engine {engine!r} (auto, graphviz, matplotlib)")
    graphviz = shutil.which("dot")
    if engine == "graphviz" and graphviz is None:
        raise RenderError("Graphviz's `dot` is not on PATH (Debian: apt-get install graphviz)")
    if graphviz is not None and engine != "matplotlib":
        picture = _graphviz(graphviz, maze_dot(maze, path), fmt)
        with atomic_output(out, inputs=tuple(inputs), binary=True) as handle:
            handle.write(picture)
        return "graphviz"
    _matplotlib(maze, path, out, fmt, inputs)
    return "matplotlib"


def _graphviz(program: str, dot: str, fmt: str) -> bytes:
    try:
        done = subprocess.run(
            [program, f"-T{fmt}"], input=dot.encode(), capture_output=True, check=False
        )
    except OSError as exc:
        raise RenderError(f"cannot run Graphviz: {exc}") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise RenderError(
            "Graphviz failed: " + (detail[0] if detail else f"exit {done.returncode}")
        )
    return done.stdout


def node_label(node: str, treasures: Sequence[str]) -> str:
    """A node's label: its name, then its treasures, a few to a line (so that a node with
    many is drawn as a taller circle, not an ever wider one).

    >>> node_label("A", ["GOLD", "WAND", "RUBY", "DIAMOND"])
    'A\\nGOLD WAND RUBY\\nDIAMOND'
    """
    return "\n".join([node, *textwrap.wrap(" ".join(treasures), 14, break_long_words=False)])


def node_sizes(labels: Sequence[str], least: float) -> list[float]:
    """Marker areas (points², as matplotlib takes them) of circles that hold their labels
    at font size 8 (about 5 points a character, 10 a line): the label's box fits inside
    when the circle spans its diagonal (a wide and tall label's corners stuck out, review
    22b #6), and at least ``least``: a fixed size left ``GOLD WAND`` wider than its node
    (audit 22-C #6).

    >>> [round(size) for size in node_sizes(["G", "H\\nGOLD WAND"], 1400)]
    [1400, 3751]
    """
    sizes = []
    for label in labels:
        lines = label.split("\n")
        across = math.hypot(5.0 * max(map(len, lines)), 10.0 * len(lines)) + 12
        sizes.append(max(least, across**2))
    return sizes


def _matplotlib(
    maze: Maze,
    path: Sequence[str] | None,
    out: str | os.PathLike[str],
    fmt: str,
    inputs: Sequence[str | os.PathLike[str]],
) -> None:
    try:
        plt = import_pyplot()
        import networkx as nx
    except ImportError as exc:
        if not missing_module(exc):
            raise RenderError(f"the plot extra is installed but does not load: {exc}") from None
        raise RenderError(
            "SVG/PNG pictures need Graphviz's `dot` on PATH or the plot extra "
            f"({_PLOT_EXTRA})"
        ) from None

    graph = nx.DiGraph()
    graph.add_nodes_from(maze.nodes)
    two_way, one_way = _edges(maze)
    graph.add_edges_from(two_way)
    graph.add_edges_from(one_way)
    undirected = graph.to_undirected()
    count = max(len(maze.nodes), 1)
    try:  # (networkx's spring layout takes scipy's sparse matrices from 500 nodes on)
        positions = nx.spring_layout(undirected, seed=0, k=1.6 / count**0.5, iterations=300)
    except ImportError as exc:
        if not missing_module(exc):
            raise RenderError(f"the plot extra is installed but does not load: {exc}") from None
        raise RenderError(
            f"a maze of {count:,} nodes is laid out with scipy, which is missing ({_PLOT_EXTRA}); "
            "or install Graphviz's `dot`"
        ) from None

    size = min(5 + 1.3 * count**0.5, 30)
    node_size = 1400 if count <= 40 else 700
    figure, axes = plt.subplots(figsize=(size, size * 0.8))
    try:
        colours = [
            _START_FILL if node == START else _TREASURE_FILL if maze.treasures_of(node) else "white"
            for node in maze.nodes
        ]
        labels = {node: node_label(node, maze.treasures_of(node)) for node in maze.nodes}
        sizes = node_sizes([labels[node] for node in maze.nodes], node_size)
        # room at the edges for the biggest circle (its radius, in points, over the axes')
        radius = max(sizes) ** 0.5 / 2
        axes.margins(x=radius / (size * 72 * 0.8) + 0.02, y=radius / (size * 0.8 * 72 * 0.8) + 0.02)
        nx.draw_networkx_nodes(
            graph, positions, nodelist=maze.nodes, node_color=colours, edgecolors="black",
            node_size=sizes, ax=axes,
        )  # fmt: skip
        nx.draw_networkx_labels(graph, positions, labels=labels, font_size=8, ax=axes)
        common = {"ax": axes, "node_size": sizes, "nodelist": maze.nodes, "arrowsize": 14,
                  "edge_color": "0.45"}  # fmt: skip
        nx.draw_networkx_edges(graph, positions, edgelist=two_way, arrowstyle="<|-|>", **common)
        nx.draw_networkx_edges(graph, positions, edgelist=one_way, arrowstyle="-|>", **common)
        moves = _steps_by_move(path)
        if moves:
            nx.draw_networkx_edges(
                graph, positions, edgelist=list(moves), edge_color=_PATH_COLOR, width=2.5,
                arrowstyle="-|>", arrowsize=18, node_size=sizes, nodelist=maze.nodes,
                connectionstyle="arc3,rad=0.18", ax=axes,
            )  # fmt: skip
            nx.draw_networkx_edge_labels(
                graph, positions, edge_labels={m: ",".join(map(str, t)) for m, t in moves.items()},
                font_color=_PATH_COLOR, font_size=9, connectionstyle="arc3,rad=0.18",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"}, ax=axes,
            )  # fmt: skip
        axes.set_title(_title(maze, path), fontsize=10)
        axes.set_axis_off()
        figure.tight_layout()
        with atomic_output(out, inputs=tuple(inputs), binary=True) as handle:
            figure.savefig(handle, format=fmt, dpi=110, metadata=NO_DATE.get(fmt))
    finally:
        plt.close(figure)
