"""The diff tree: signed deltas, before -> after, status marks, pruning and colour."""

import pytest

from graphframe import GraphframeError, diff
from tests.helpers import pair
from tests.helpers import replaced

TREE = """\
+2.000 main (8.500 → 10.500, +23.5%)
├─ -0.500 io (0.500 → 0.000, -100.0%) [removed]
└─ +2.500 solve (7.000 → 9.500, +35.7%)
   ├─ +1.000 mpi (0.000 → 1.000, new) [added]
   └─ +1.000 spmv (5.000 → 6.000, +20.0%)
"""


@pytest.fixture
def d():
    before, after = pair(ranks=0)
    return diff(before, after)


def test_inclusive_tree_exact(d):
    assert d.diff_tree(render_header=False) == TREE
    assert d.diff_tree(render_header=False) == TREE


def test_header_ascii_exclusive_and_precision(d):
    text = d.diff_tree(kind="exclusive", unicode=False, precision=1)
    lines = text.splitlines()
    assert lines[0] == "time: delta (test -> test)"
    assert lines[2:] == [
        "+0.0 main (1.0 -> 1.0, +0.0%)",
        "|- -0.5 io (0.5 -> 0.0, -100.0%) [removed]",
        "`- +0.5 solve (2.0 -> 2.5, +25.0%)",
        "   |- +1.0 mpi (0.0 -> 1.0, new) [added]",
        "   `- +1.0 spmv (5.0 -> 6.0, +20.0%)",
    ]


def test_changed_only_keeps_significant_nodes_and_their_ancestors():
    before, after = pair(ranks=0)
    d = diff(before, after, threshold=20.0)  # |delta| >= 1.7: main (2.0) and solve (2.5)
    assert d.diff_tree(changed_only=True, render_header=False) == (
        "+2.000 main (8.500 → 10.500, +23.5%)\n"
        "└─ +2.500 solve (7.000 → 9.500, +35.7%)\n")
    # exclusive changes of at least 0.85 (10%): mpi and spmv (+1); io (-0.5) goes, main and
    # solve stay as their ancestors
    d = diff(before, after, threshold=10.0)
    assert d.diff_tree(kind="exclusive", changed_only=True, render_header=False) == (
        "+0.000 main (1.000 → 1.000, +0.0%)\n"
        "└─ +0.500 solve (2.000 → 2.500, +25.0%)\n"
        "   ├─ +1.000 mpi (0.000 → 1.000, new) [added]\n"
        "   └─ +1.000 spmv (5.000 → 6.000, +20.0%)\n")


def test_depth_and_long_names(d):
    assert d.diff_tree(depth=1, render_header=False) == TREE.splitlines(keepends=True)[0]
    before, after = pair(ranks=0)
    long = "x" * 50
    renamed = replaced(after, dataframe=after.dataframe.assign(
        name=after.dataframe["name"].replace({"mpi": long})))
    text = diff(before, renamed).diff_tree(render_header=False)
    assert "xxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx (0.000" in text
    assert long in diff(before, renamed).diff_tree(render_header=False, expand_name=True)


def test_colours(d):
    text = d.diff_tree(color=True, render_header=False)
    lines = text.splitlines()
    assert lines[0].startswith("\033[38;5;196m+2.000\033[0m main")   # regression: red
    assert "\033[38;5;29m-0.500\033[0m io" in lines[1]                # improvement: green
    # a tag has its delta's colour: a removed node is a saving, an added one a cost
    assert lines[1].endswith("\033[38;5;29m[removed]\033[0m")
    assert lines[3] == ("   ├─ \033[38;5;196m+1.000\033[0m mpi\033[2m (0.000 → 1.000, new)\033[0m "
                        "\033[38;5;196m[added]\033[0m")
    quiet = diff(*pair(ranks=0), threshold=50.0).diff_tree(color=True, render_header=False)
    assert quiet.splitlines()[0].startswith("\033[2m+2.000\033[0m main")  # under the noise
    assert quiet.splitlines()[1].endswith("\033[2m[removed]\033[0m")  # faint like its delta


def test_not_a_diff():
    before, _ = pair()
    with pytest.raises(GraphframeError, match="not a diff result"):
        before.diff_tree()
