"""The real-data corpus (``../shared/data``) for tests: which files some reader reads, and
an exact comparison of two GraphFrames."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

import graphframe
import graphframe_readers

#: ``../shared/data`` beside the checkout (tests that need it skip when it is absent).
SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

#: Hatchet's literal files of the corpus.
LITERAL_FILES = sorted(p.name for p in (SHARED_DATA / "literal").glob("*.json")) \
    if (SHARED_DATA / "literal").is_dir() else []

GRAPH_ARRAYS = ("root_ids", "parent", "parent_ptr", "parent_idx", "child_ptr", "child_idx",
                "depth")


def same_value(a, b):
    """Equality that treats NaN as equal to NaN and checks numpy types."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(
            same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same_value, a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def assert_same(gf, back):
    for name in GRAPH_ARRAYS:
        np.testing.assert_array_equal(getattr(gf.graph, name), getattr(back.graph, name),
                                      err_msg=name)
    pd.testing.assert_frame_equal(gf.graph.attrs, back.graph.attrs, check_exact=True)
    assert gf.graph.ordered == back.graph.ordered
    assert gf.graph.is_forest == back.graph.is_forest
    assert gf.graph == back.graph
    pd.testing.assert_frame_equal(gf.dataframe, back.dataframe, check_exact=True)
    assert gf.exc_metrics == back.exc_metrics and gf.inc_metrics == back.inc_metrics
    assert gf.inclusive_of == back.inclusive_of
    assert gf.default_metric == back.default_metric
    assert same_value(gf.metadata, back.metadata), (gf.metadata, back.metadata)


def corpus_inputs():
    manifest = SHARED_DATA / "MANIFEST.md"
    if not manifest.is_file():
        return []
    table = manifest.read_text().split("## Datasets", 1)[1].split("## Companion", 1)[0]
    paths = [line.split("|")[1].strip() for line in table.splitlines()
             if line.startswith("| ") and not line.startswith("| path")]
    found = []
    for rel in paths:
        try:
            graphframe_readers.sniff(SHARED_DATA / rel)
        except graphframe.GraphframeError:
            continue
        found.append(rel)
    return found

