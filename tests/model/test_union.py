"""Graph.union of two forests against interning both graphs' call paths at once."""

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from graphframe import Graph
from graphframe.kernels import structure as kernels
from graphframe.kernels.paths import intern_paths, representatives, sibling_occurrence
from graphframe.model.frame_codes import joint_frame_codes
from tests.corpus import GRAPH_ARRAYS
from tests.strategies import SETTINGS


@st.composite
def forests(draw, ordered=False):
    n = draw(st.integers(1, 30))
    parent = [-1] + [draw(st.integers(-1 if i < 3 else 0, i - 1)) for i in range(1, n)]
    names = [draw(st.sampled_from("abcd")) for _ in range(n)]
    attrs = pd.DataFrame({"name": pd.Series(names, dtype=object), "type": "function"})
    return Graph.build(attrs, np.array(parent), ordered=ordered)[0]


def interned_union(a, b):
    """The union as one interning of both graphs' nodes by (parent path, frame code,
    occurrence among the siblings of one graph), then built."""
    na = a.num_nodes
    codes = joint_frame_codes(a, b)
    parent = np.concatenate([a.parent, np.where(b.parent >= 0, b.parent + na, -1)])
    rank = np.concatenate([sibling_occurrence(a.parent, codes[:na]),
                           sibling_occurrence(b.parent, codes[na:])])
    path, k = intern_paths(parent, codes, np.concatenate([a.depth, b.depth]), rank=rank)
    rep = representatives(path, k)
    merged_parent = np.where(parent[rep] >= 0, path[np.maximum(parent[rep], 0)], -1)
    attrs = pd.concat([a.attrs, b.attrs], ignore_index=True, sort=False).iloc[rep]
    ordered = a.ordered and b.ordered
    graph, order = Graph.build(attrs, merged_parent, ordered=ordered,
                               sibling_key=rep if ordered else None, codes=codes[rep])
    new_of_path = kernels.invert(order, k)
    return graph, new_of_path[path[:na]], new_of_path[path[na:]]


@SETTINGS
@given(st.booleans().flatmap(lambda ordered: st.tuples(forests(ordered), forests(ordered))))
def test_union_of_forests_equals_interning_both_graphs_at_once(pair):
    a, b = pair
    for left, right in ((a, b), (b, a), (a, a)):
        got, got_l, got_r = left.union(right, return_mappings=True)
        want, want_l, want_r = interned_union(left, right)
        for name in GRAPH_ARRAYS:
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
        pd.testing.assert_frame_equal(got.attrs, want.attrs, check_exact=True)
        assert got.ordered == want.ordered and got.is_forest
        assert got_l.tolist() == want_l.tolist() and got_r.tolist() == want_r.tolist()
