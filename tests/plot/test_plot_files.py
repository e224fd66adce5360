"""Every plot kind rendered once to PNG and to SVG: a file of the right size."""

import re
import struct

import numpy as np
import pandas as pd
import pytest

from graphframe import diff
from graphframe import plot as gfplot
from tests.plot.profiles import SOLVER, build, matplotlib_agg, solver

mpl = matplotlib_agg()
figure = pytest.importorskip("matplotlib.figure")

SCALING = pd.DataFrame({"solve": [8.0, 4.5, 2.6]}, index=pd.Index([1, 2, 4], name="ranks"))


def after():
    return build(SOLVER, np.array([0.5, 1.0, 6.0, 1.5, 2.0, 0.25])[:, None] * np.ones(4))


KINDS = {
    "flamegraph": lambda ax: gfplot.flamegraph(solver(), ax=ax),
    "icicle": lambda ax: gfplot.icicle(solver(), color="time", ax=ax),
    "diff-flamegraph": lambda ax: diff(solver(), after()).plot.flamegraph(ax=ax),
    "heatmap": lambda ax: gfplot.heatmap(solver(), imbalance=True, ax=ax),
    "bar": lambda ax: solver().plot.bar(stacked="rank", ax=ax),
    "hist": lambda ax: solver(ranks=16).plot.hist("spmv", ax=ax),
    "box": lambda ax: gfplot.box(solver(ranks=16), ax=ax),
    "violin": lambda ax: gfplot.violin(solver(ranks=16), ax=ax),
    "scaling": lambda ax: gfplot.scaling(SCALING, panels=["speedup"], ax=[ax]),
}


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_renders_to_png_and_svg(kind, tmp_path):
    fig = figure.Figure(figsize=(6.0, 4.0), layout="constrained")
    ax = fig.add_subplot()
    out = KINDS[kind](ax)
    assert out is ax or out is fig
    png, svg = tmp_path / f"{kind}.png", tmp_path / f"{kind}.svg"
    fig.savefig(png, dpi=50)
    fig.savefig(svg)
    data = png.read_bytes()
    assert len(data) > 2000 and png_size(data) == (300, 200)
    text = svg.read_text()
    assert re.search(r'<svg [^>]*width="432pt" height="288pt"', text)
    assert text.count("<path") > 5
