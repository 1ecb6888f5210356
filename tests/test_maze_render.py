"""maze.render: DOT text always; SVG/PNG with Graphviz or matplotlib; clear errors otherwise."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from maze.parser import parse_maze
from maze.render import RenderError, maze_dot, output_format, render

ROOT = Path(__file__).resolve().parents[1]
MAZE = parse_maze(
    'START A "Q"\nGOLD WAND\n3\n'
    'START TREASURES NEXT A\nA TREASURES GOLD NEXT START "Q"\n"Q" TREASURES WAND NEXT START\n',
    "r.txt",
)
PATH = ["START", "A", "START", "A"]


def test_dot_text():
    dot = maze_dot(MAZE, PATH)
    assert dot.startswith("digraph maze {") and dot.endswith("}\n")
    assert '"START" -> "A" [dir=both];' in dot  # START <-> A is two-way
    assert '"A" -> "\\"Q\\"";' in dot  # one-way, the quote in the name escaped
    assert '"\\"Q\\"" -> "START";' in dot
    assert 'label="A\\nGOLD"' in dot  # treasures labelled, newline escaped
    assert "shape=doublecircle" in dot
    assert 'label="1,3"' in dot and 'label="2"' in dot  # steps numbered, repeats grouped
    assert "path: START A START A" in dot


def test_dot_without_path_has_no_red_edges():
    assert "penwidth" not in maze_dot(MAZE)


def test_output_format():
    assert [output_format(name) for name in ("a.svg", "b.PNG", "c.dot", "d.gv")] == [
        "svg",
        "png",
        "dot",
        "dot",
    ]
    with pytest.raises(RenderError, match=r"\.dot, \.svg or \.png"):
        output_format("picture.jpg")
    # a compressed name is written compressed, as every output is (audit 17-D #4)
    assert [output_format(name) for name in ("a.svg.gz", "b.dot.xz", "c.png.bz2")] == [
        "svg", "dot", "png"]  # fmt: skip
    with pytest.raises(RenderError):
        output_format("picture.gz")
    with pytest.raises(RenderError):  # compressed once only: the writer compresses once
        output_format("picture.svg.gz.bz2")


def test_dot_file(tmp_path):
    out = tmp_path / "m.dot"
    assert render(MAZE, out, PATH) == "dot-text"
    assert out.read_text() == maze_dot(MAZE, PATH)


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_matplotlib(tmp_path, fmt):
    pytest.importorskip("matplotlib")
    pytest.importorskip("networkx")
    out = tmp_path / f"m.{fmt}"
    assert render(MAZE, out, PATH, engine="matplotlib") == "matplotlib"
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if fmt == "png" else b"<svg" in data[:2000]
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_graphviz(tmp_path, fmt):
    out = tmp_path / f"m.{fmt}"
    assert render(MAZE, out, PATH, engine="graphviz") == "graphviz"
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if fmt == "png" else b"<svg" in data


def test_graphviz_requested_but_absent(tmp_path, monkeypatch):
    monkeypatch.setattr("maze.render.shutil.which", lambda name: None)
    with pytest.raises(RenderError, match="apt-get install graphviz"):
        render(MAZE, tmp_path / "m.png", engine="graphviz")


def test_no_renderer_at_all(tmp_path, monkeypatch):
    monkeypatch.setattr("maze.render.shutil.which", lambda name: None)
    monkeypatch.setitem(sys.modules, "networkx", None)  # makes `import networkx` fail
    with pytest.raises(RenderError, match=r"plot extra"):
        render(MAZE, tmp_path / "m.png")
    assert list(tmp_path.iterdir()) == []


def test_graphviz_failure_is_reported(tmp_path, monkeypatch):
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho 'syntax error in line 1' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr("maze.render.shutil.which", lambda name: str(fake))
    with pytest.raises(RenderError, match="Graphviz failed: syntax error"):
        render(MAZE, tmp_path / "m.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dot"]


def test_unknown_engine(tmp_path):
    with pytest.raises(RenderError, match="unknown engine"):
        render(MAZE, tmp_path / "m.png", engine="gnuplot")


def test_matplotlib_svg_is_the_same_file_every_time(tmp_path):
    # the SVG carried its date and random clip-path ids: two runs differed in 76 lines
    # (audit 20-C #6); PNG and DOT were already byte-identical
    pytest.importorskip("matplotlib")
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    render(MAZE, first, PATH, engine="matplotlib")
    render(MAZE, second, PATH, engine="matplotlib")
    assert first.read_bytes() == second.read_bytes()
    assert b"<dc:date>" not in first.read_bytes()


def test_a_500_node_maze_without_scipy_is_one_error_naming_the_plot_extra(tmp_path, monkeypatch):
    # networkx's spring layout imports scipy from 500 nodes on; without it, maze show was a
    # ModuleNotFoundError traceback (audit 26-B F1): scipy is now in the plot extra
    pytest.importorskip("networkx")
    import networkx

    def no_scipy(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")

    monkeypatch.setattr(networkx, "spring_layout", no_scipy)
    monkeypatch.setattr("maze.render.shutil.which", lambda name: None)
    with pytest.raises(RenderError) as info:
        render(MAZE, tmp_path / "m.svg")
    assert str(info.value) == (
        "a maze of 3 nodes is laid out with scipy, which is missing (pip install "
        "'dimacs-satkit[plot]': matplotlib, networkx and scipy); or install Graphviz's `dot`"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_plot_extra_holds_what_networkx_needs_for_500_nodes():
    # (the checkout's pyproject.toml, not an installed copy's metadata: review 26 #10)
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    extra = project["project"]["optional-dependencies"]["plot"]
    assert any(requirement.startswith("scipy") for requirement in extra), extra


def test_an_installed_matplotlib_that_does_not_load_is_named_as_such(tmp_path, monkeypatch):
    # matplotlib 3.7.0 beside numpy 2 fails to import: the message said to pip install the
    # extra that was installed (audit 20-A #3)
    import crosscheck.plot
    from crosscheck.plot import PlotUnavailable, load_pyplot

    def broken():
        raise ImportError("numpy.core.multiarray failed to import")

    monkeypatch.setattr("maze.render.shutil.which", lambda name: None)
    monkeypatch.setattr("maze.render.import_pyplot", broken)
    with pytest.raises(RenderError) as info:
        render(MAZE, tmp_path / "m.png")
    assert str(info.value) == (
        "the plot extra is installed but does not load: numpy.core.multiarray failed to import"
    )
    monkeypatch.setattr(crosscheck.plot, "import_pyplot", broken)
    with pytest.raises(PlotUnavailable, match="installed but does not load: numpy"):
        load_pyplot()
    assert list(tmp_path.iterdir()) == []
