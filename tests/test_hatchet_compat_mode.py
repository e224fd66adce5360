"""graphframe.options.hatchet_compat: Hatchet's behaviour where graphframe's default differs
(docs/guide/coming-from-hatchet.md, "Hatchet compatibility mode"). The hatchet import
shim turns it on; these tests turn it on with graphframe.options.hatchet_compatible()."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import graphframe
from graphframe import GraphFrame, options
from graphframe.examples import example_graphframe
from graphframe.query import ObjectQuery, QueryEngine, StringQuery
from graphframe.query.errors import InvalidQueryFilter


def _node(name, x, y, *children):
    return {"frame": {"name": name, "type": "function"},
            "metrics": {"time": 1.0, "x": float(x), "y": float(y)}, "children": list(children)}


#: a(x=200)->b(y=20), c(x=20)->d(y=20), e(x=50)->f(y=20), g(x=20)->h(y=5), i(x=200)->j(y=5)
LITERAL = [_node("a", 200, 0, _node("b", 0, 20)), _node("c", 20, 0, _node("d", 0, 20)),
           _node("e", 50, 0, _node("f", 0, 20)), _node("g", 20, 0, _node("h", 0, 5)),
           _node("i", 200, 0, _node("j", 0, 5))]
ACROSS_NODES = 'MATCH (p)->(q) WHERE p."x" > 100 OR p."x" <= 30 AND q."y" = 20'


def _text_dtypes(gf):
    return {c: str(t) for c, t in gf.dataframe.dtypes.items() if not pd.api.types.is_numeric_dtype(t)}


def test_the_setting_is_off_by_default_and_restored_after_a_block():
    assert options.hatchet_compat is False
    with options.hatchet_compatible():
        assert graphframe.options.hatchet_compat is True
        with options.hatchet_compatible(False):
            assert options.hatchet_compat is False
        assert options.hatchet_compat is True
    assert options.hatchet_compat is False
    with pytest.raises(ZeroDivisionError), options.hatchet_compatible():
        1 / 0
    assert options.hatchet_compat is False


def test_text_columns_are_object_columns_and_stay_so_through_operations():
    assert _text_dtypes(example_graphframe()) == {"name": "text"}
    with options.hatchet_compatible():
        gf = example_graphframe()
        assert _text_dtypes(gf) == {"name": "object"}
        assert gf.dataframe["name"].iloc[0] == "main" and gf.dataframe["name"].dtype == object
        results = [gf.filter(lambda row: row["time"] > 0.1), gf.copy(), gf.deepcopy(),
                   gf.squash(), gf + gf, gf.drop_index_levels(inplace=False),
                   GraphFrame.from_literal(LITERAL)]
        for out in results:
            assert set(_text_dtypes(out).values()) == {"object"}, _text_dtypes(out)
    # values are the same as under the default: only the dtype differs
    default = example_graphframe().dataframe
    with options.hatchet_compatible():
        compat = example_graphframe().dataframe
    assert compat["name"].tolist() == default["name"].tolist()
    pd.testing.assert_frame_equal(compat.astype({"name": object}),
                                  default.astype({"name": object}))


def test_readers_integer_columns_have_hatchets_types(shared_data: Path):
    cpi = shared_data / "hpctoolkit/hatchet-cpi-database"
    cali = shared_data / "caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali"
    split = shared_data / "caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json"
    default = GraphFrame.from_hpctoolkit(str(cpi)).dataframe
    assert (default["nid"].dtype, default["line"].dtype) == (np.int32, np.int32)
    with options.hatchet_compatible():
        hpct = GraphFrame.from_hpctoolkit(str(cpi)).dataframe
        native = GraphFrame.from_caliperreader(str(cali)).dataframe
        json_split = GraphFrame.from_caliper(str(split)).dataframe
    # Hatchet 2024.1.0's own tests assert these (hpctoolkit.py, caliper.py)
    assert (hpct["nid"].dtype, hpct["line"].dtype) == (np.int64, np.int64)
    assert {hpct[c].dtype for c in ("name", "type", "file", "module")} == {np.dtype(object)}
    assert native["nid"].dtype == pd.Int64Dtype() and native["name"].dtype == object
    assert json_split["nid"].dtype == np.int64 and json_split["name"].dtype == object
    assert hpct["nid"].tolist() == default["nid"].tolist()


def _names(gf, nodes):
    return sorted(n.frame["name"] for n in nodes)


def test_string_dialect_where_clause_has_hatchets_meaning():
    gf = GraphFrame.from_literal(LITERAL)
    # graphframe: one condition on the path, AND before OR: x > 100 OR (x <= 30 AND y = 20)
    assert _names(gf, QueryEngine().apply(StringQuery(ACROSS_NODES), gf.graph, gf.dataframe)) \
        == ["a", "b", "c", "d", "i", "j"]
    with options.hatchet_compatible():
        gf = GraphFrame.from_literal(LITERAL)
        # Hatchet: p's conditions (x > 100 OR x <= 30) and q's (y = 20), the nodes ANDed
        matched = QueryEngine().apply(StringQuery(ACROSS_NODES), gf.graph, gf.dataframe)
        assert _names(gf, matched) == ["a", "b", "c", "d"]
        # an OR between two nodes' conditions is an AND, as in Hatchet
        across = 'MATCH (p)->(q) WHERE p."x" = 50 OR q."y" = 5'
        assert _names(gf, gf.query(across)) == []
        within = 'MATCH (p)->(q) WHERE p."x" = 50 OR p."x" = 20 AND q."y" = 5'
        assert _names(gf, gf.query(within)) == ["g", "h"]
        # a NOT stays on its condition
        negated = 'MATCH (p)->(q) WHERE NOT p."x" = 200 AND q."y" = 20'
        assert _names(gf, gf.query(negated)) == ["c", "d", "e", "f"]


def test_object_condition_of_another_type_is_refused_when_applied():
    class Opaque:
        pass

    path = [{"name": "a"}, {"x": Opaque()}]
    with pytest.raises(InvalidQueryFilter, match="the condition on 'x' must be a regex string"):
        ObjectQuery(path)                                     # graphframe: when built
    with options.hatchet_compatible():
        gf = GraphFrame.from_literal(LITERAL)
        query = ObjectQuery(path)                             # Hatchet: built ...
        with pytest.raises(InvalidQueryFilter, match="the condition on 'x' must be a regex"):
            QueryEngine().apply(query, gf.graph, gf.dataframe)   # ... refused when applied


def test_tree_refuses_hatchets_old_keyword_names():
    gf = GraphFrame.from_literal(LITERAL)
    with pytest.warns(DeprecationWarning):
        gf.tree(invert_colors=True)
    with options.hatchet_compatible():
        for old, new in (("invert_colors", "invert_colormap"), ("name", "name_column"),
                         ("metric", "metric_column"), ("expand_names", "expand_name"),
                         ("context", "context_column")):
            with pytest.raises(ValueError, match=f'"{old}=" is an old name that Hatchet no '
                                                 f'longer takes; use "{new}="'):
                gf.tree(**{old: "time"})
        with pytest.raises(TypeError, match="both metric="):
            gf.tree(metric="time", metric_column="time")


def test_thicket_frames_have_the_graphframes_column_types(shared_data: Path):
    from graphframe.thicket import Thicket

    path = str(shared_data / "caliper/thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/1/"
                             "Base_Seq-default.cali")
    with options.hatchet_compatible():
        gf = GraphFrame.from_caliperreader(path)
        tk = Thicket.thicketize_graphframe(gf, path)
    assert tk.dataframe["name"].dtype == object and gf.dataframe["name"].dtype == object
    assert tk.dataframe["nid"].dtype == pd.Int64Dtype() == gf.dataframe["nid"].dtype
    # Thicket 2024.2's test_thicketize_graphframe: the frame without its profile level
    assert gf.dataframe.equals(tk.dataframe.droplevel("profile"))
    # a Thicket's frames are plain DataFrames (their reset node column stays Int64)
    assert type(tk.dataframe) is pd.DataFrame and type(tk.statsframe.dataframe) is pd.DataFrame
    assert type(gf.dataframe).__name__ == "HatchetFrame"


@pytest.mark.filterwarnings("ignore:The inplace keyword")   # Hatchet users' code, as written
def test_a_reset_node_column_is_an_object_column_of_nodes_and_sets_back():
    default = example_graphframe().dataframe.reset_index()
    assert str(default["node"].dtype) == "Int64"
    with options.hatchet_compatible():
        gf = example_graphframe()
        flat = gf.dataframe.reset_index()
        assert flat["node"].dtype == object and flat["rank"].dtype == np.int64
        assert [n.frame["name"] for n in flat["node"][:5:4]] == ["main", "initialize"]
        assert flat["node"].tolist() == default["node"].tolist()
        # Hatchet's tests reset in place, then use the frame; setting the index back
        # gives the node level again, and operations run on it as before
        gf.dataframe.reset_index(inplace=True)
        assert gf.dataframe["node"].dtype == object
        gf.dataframe.set_index(["node", "rank"], inplace=True)
        assert str(gf.dataframe.index.levels[0].dtype) == "Int64"
        filtered = gf.filter(lambda row: row["time"] > 1.0)
        assert sorted({n.frame["name"] for n in filtered.dataframe.index.get_level_values(0)}) \
            == sorted({n.frame["name"] for n in example_graphframe().filter(
                lambda row: row["time"] > 1.0).dataframe.index.get_level_values(0)})
        # frames derived from the GraphFrame's frame behave the same
        summed = gf.dataframe.groupby(level="node").sum(numeric_only=True).reset_index()
        assert summed["node"].dtype == object
        # a GraphFrame made from the reset frame set back by hand
        again = GraphFrame(gf.graph, flat.set_index(["node", "rank"]), ["time"], ["time (inc)"])
        assert again.dataframe.equals(gf.dataframe)


def test_pandas_warnings_name_the_callers_line():
    with options.hatchet_compatible():
        gf = example_graphframe()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gf.dataframe.reset_index(inplace=True)
    if not caught:
        pytest.skip(f"pandas {pd.__version__} does not deprecate inplace=")
    assert [w.filename for w in caught] == [__file__]
