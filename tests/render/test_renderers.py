"""Every renderer of the registry against the one contract: ``render(gf, **options) -> str``."""

import pytest

from graphframe import diff
from graphframe.errors import ArgumentError
from graphframe.examples import example_graphframe
from graphframe.render.registry import RENDERERS, file_renderers
from tests.helpers import pair

#: A value for each option a renderer may declare (one the example data has).
OPTION_VALUES = {"rank": 1, "thread": 0, "metric": "time", "precision": 1, "depth": 2,
                 "name": "name", "unicode": False, "color": False, "render_header": False,
                 "aggregate": "sum", "threshold": 0.0, "separator": ";", "scale": 100.0,
                 "max_depth": 2, "metric_column": "time (inc)", "kind": "exclusive"}


def input_for(name):
    """What the renderer draws: a diff result for the diff tree, a profile otherwise."""
    return diff(*pair()) if name == "diff-tree" else example_graphframe()


# the folded renderer notes the scale it chose (an ExportNote); the contract is about the text
@pytest.mark.filterwarnings("ignore::graphframe.render.weights.ExportNote")
@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_renderer_contract(name):
    renderer = RENDERERS[name]
    gf = input_for(name)
    text = renderer.render(gf)
    assert isinstance(text, str) and text
    assert renderer.render(gf) == text  # deterministic: the same text every time
    # the declared options this test has a value for are accepted, deterministically
    given = {k: v for k, v in OPTION_VALUES.items() if k in renderer.options}
    assert given or not renderer.options, f"{name}: no option of {renderer.options} exercised"
    again = renderer.render(gf, **given)
    assert isinstance(again, str) and again == renderer.render(gf, **given)
    if "rank" in renderer.options:  # rank 3 of the example is the slow one
        assert renderer.render(gf, rank=3) != renderer.render(gf, rank=0)
    with pytest.raises(ArgumentError, match=f"the {name} renderer takes"):
        renderer.render(gf, no_such_option=1)
    assert renderer.name == name and renderer.description


def test_the_methods_and_the_registry_give_the_same_text():
    gf = example_graphframe()
    assert RENDERERS["tree"].render(gf, color=False) == gf.tree(color=False)
    assert RENDERERS["dot"].render(gf, rank=2) == gf.to_dot(rank=2)
    assert RENDERERS["folded"].render(gf, scale=10.0) == gf.to_flamegraph(scale=10.0)
    assert RENDERERS["speedscope"].render(gf) == gf.to_speedscope()
    assert RENDERERS["json"].render(gf) == gf.to_json()
    assert RENDERERS["html"].render(gf) == gf._repr_html_()
    d = diff(*pair())
    assert RENDERERS["diff-tree"].render(d, depth=1) == d.diff_tree(depth=1)


def test_convert_offers_exactly_the_file_renderers(tmp_path):
    from graphframe.cli.convert import output_format, output_formats

    assert output_formats() == ["graphframe"] + [r.name for r in file_renderers()]
    for r in file_renderers():
        for suffix in r.suffixes:
            assert output_format(f"out{suffix}", None) == r.name
