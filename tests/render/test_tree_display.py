"""Text trees: work proportional to what is shown, and the display defects of issue 19."""

import re

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import Graph, GraphFrame, diff
from graphframe.render import colors as C
from graphframe.render import diff_tree as diff_tree_module
from graphframe.render import tree as tree_module
from graphframe.render.diff_tree import render_diff_tree
from graphframe.render.html import render_html
from tests.helpers import gf_from_edges, replaced

ESC = "\033["
TAU = "tau/hatchet-tau-cpi-mpi"
OSU = "hpctoolkit/hatchet-osu-allgather-database"
LULESH = "caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali"


def _chain(n):
    return gf_from_edges([f"f{i}" for i in range(n)], [-1] + list(range(n - 1)))


def _count_formatted(monkeypatch, module):
    """Record how many values each call of ``module.format_numbers`` formats."""
    seen = []
    real = module.format_numbers

    def counting(values, *args, **kwargs):
        seen.append(len(values))
        return real(values, *args, **kwargs)

    monkeypatch.setattr(module, "format_numbers", counting)
    return seen


def test_tree_formats_only_the_shown_nodes(monkeypatch):
    gf = _chain(3000)
    seen = _count_formatted(monkeypatch, tree_module)
    assert gf.tree(depth=2, render_header=False) == "1.000 f0\n└─ 1.000 f1\n"
    assert seen == [2]


def test_tree_walk_skips_children_below_the_limit():
    # a root with 5,000 children: depth=1 prints (and walks) the root alone
    gf = gf_from_edges(["r"] + [f"c{i}" for i in range(5000)], [-1] + [0] * 5000)
    assert gf.tree(depth=1, render_header=False) == "1.000 r\n"
    assert gf.tree(depth=0, render_header=False) == ""


def test_diff_tree_formats_only_the_shown_nodes(monkeypatch):
    d = diff(_chain(2000), _chain(2001))
    seen = _count_formatted(monkeypatch, diff_tree_module)
    text = render_diff_tree(d, depth=3, render_header=False)
    assert text.count("\n") == 3
    assert seen == [3, 3, 3]   # delta, before and after of the three shown nodes


def test_diff_tree_changed_only_with_depth(monkeypatch):
    a = GraphFrame.from_lists(("main", ("solve", ("mpi", "wait")), "io"))
    b = GraphFrame.from_lists(("main", ("solve", ("mpi", "wait", "poll")), "io"))
    d = diff(a, b)
    text = render_diff_tree(d, depth=3, changed_only=True, render_header=False,
                            unicode=False)
    assert text == ("+1.000 main (5.000 -> 6.000, +20.0%)\n"
                    "`- +1.000 solve (3.000 -> 4.000, +33.3%)\n"
                    "   `- +1.000 mpi (2.000 -> 3.000, +50.0%)\n")


def test_missing_context_prints_nothing():
    gf = GraphFrame.from_lists(("a", "b"))
    df = gf.dataframe.copy()
    df["file"] = pd.Series(["a.c", None], index=df.index, dtype=object)
    gf = replaced(gf, dataframe=df)
    assert gf.tree(render_header=False) == "1.000 a a.c\n└─ 1.000 b\n"
    df["file"] = pd.Categorical(["a.c", np.nan])
    assert replaced(gf, dataframe=df).tree(render_header=False) == "1.000 a a.c\n└─ 1.000 b\n"


@pytest.mark.parametrize("rel, first", [
    (TAU, "51781.000 .TAU application\n"),
    ("timemory/hatchet/wall.tree.json", "1.502 generate_history/outer-loop-0 hatchet_tests.cpp\n"),
    ("hpctoolkit/hatchet-gamess-v4-database", "1608.492 main thread\n"),
])
def test_real_files_print_no_nan_context(shared_data, rel, first):
    text = graphframe.read(shared_data / rel).tree(render_header=False, depth=3)
    assert text.startswith(first)
    assert not re.search(r" nan$", text, re.M)


def test_header_names_rank_and_thread(shared_data):
    gf = graphframe.read(shared_data / OSU)
    assert list(gf.dataframe.index.names) == ["node", "rank", "thread"]
    assert gf.tree(depth=1).startswith(
        "graphframe v0.1.0 \u2014 time [\u00b5s] (rank 0, thread 0)\n\n")
    assert gf.tree(depth=1, rank=3, thread=1, unicode=False).startswith(
        "graphframe v0.1.0 - time [us] (rank 3, thread 1)\n\n")


def test_values_that_round_to_zero_print_without_a_sign():
    gf = GraphFrame.from_lists(("a", "b", "c"))
    df = gf.dataframe.copy()
    df["time"] = [-1e-9, -0.0, -0.0006]
    text = replaced(gf, dataframe=df).tree(render_header=False, unicode=False)
    assert text == "0.000 a\n|- 0.000 b\n`- -0.001 c\n"


def test_diff_deltas_that_round_to_zero_print_as_plus_zero():
    a = GraphFrame.from_lists(("main", "solve"))
    df = a.dataframe.copy()
    df["time"] = [1.0, 1.0 - 1e-7]
    b = replaced(a, dataframe=df).update_inclusive_columns(inplace=False)
    text = render_diff_tree(diff(a, b, threshold=0), render_header=False, unicode=False)
    assert "-0.000" not in text and "-0.0%" not in text
    assert text.splitlines()[1] == "`- +0.000 solve (1.000 -> 1.000, +0.0%)"


def test_integer_columns_print_with_decimals_as_in_hatchet(shared_data):
    gf = graphframe.read(shared_data / LULESH)
    assert str(gf.dataframe["count"].dtype).lower().startswith("int")
    lines = gf.tree(metric_column=["count", "time"], depth=2, render_header=False).splitlines()
    main = lines.index("2.000 0.025 main")
    assert lines[main + 1].startswith("└─ 41.000 ")
    assert gf.tree(metric_column="count", depth=1, precision=1,
                   render_header=False).splitlines()[-1] == "2.0 main"


def _rgb(index):
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[index // 36], steps[(index // 6) % 6], steps[index % 6]
    grey = 8 + 10 * (index - 232)
    return grey, grey, grey


def _contrast_on_black(index):
    def channel(x):
        x /= 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(x) for x in _rgb(index))
    return (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05) / 0.05


def _indices(code):
    return [int(x) for x in re.findall(r"38;5;(\d+)m", code)]


def test_every_text_colour_is_readable_on_a_dark_terminal():
    used = {c for cmap in C.COLORMAPS.values() for c in cmap}
    used |= {i for code in (C.RED, C.GREEN, C.LEFT, C.RIGHT, C.BLUE) for i in _indices(code)}
    assert 22 not in used   # Hatchet's dark green (2.6:1 on black)
    weak = {i: round(_contrast_on_black(i), 2) for i in used if _contrast_on_black(i) < 4.5}
    assert weak == {}
    assert all(len(set(cmap)) == 6 for cmap in C.COLORMAPS.values())


def _check_lines_close_their_colours(text):
    for line in text.split("\n"):
        assert not line.startswith(C.RESET)
        codes = re.findall(r"\033\[[0-9;]*m", line)
        assert not codes or codes[-1] == C.RESET, repr(line)   # nothing left open


def test_colour_resets_come_before_the_newline():
    gf = GraphFrame.from_lists(("main", ("a\nb", "c\r\nd")))
    df = gf.dataframe.copy()
    df["file"] = ["x.c", "two\nlines.c", None]
    gf = replaced(gf, dataframe=df)
    text = gf.tree(color=True, render_header=False, legend=False)
    assert text.count("\n") == 3   # line breaks inside names/contexts became spaces
    _check_lines_close_their_colours(text)
    assert "a b" in text and "c d" in text and "two lines.c" in text
    other = GraphFrame.from_lists(("main", ("a\nb", "e")))
    dtext = render_diff_tree(diff(gf, other), color=True)
    assert dtext.count("\n") == 2 + 4
    _check_lines_close_their_colours(dtext)


def test_notebook_view_prints_no_negative_zero():
    gf = GraphFrame.from_lists(("a", "b"))
    df = gf.dataframe.copy()
    df["time"] = [-1e-9, 2.0]
    df["time (inc)"] = [2.0 - 1e-9, -1e-9]
    page = render_html(replaced(gf, dataframe=df), metric="time (inc)")
    assert "-0.000" not in page and "0.000 b" in page
