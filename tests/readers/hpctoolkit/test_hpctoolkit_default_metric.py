"""The default metric of the current HPCToolkit layout (issue 33 item 2): what hpcviewer
shows first (``metrics/default.yaml``), time when it has values, never an all-zero column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from graphframe_readers import RawProfile
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from graphframe_readers.testing import write_hpctoolkit_latest

YAML = """version: 0
roots:
  - name: Uncategorized
    variants:
      Sum:
        render: hidden
    children:
      - name: GINS
        variants: {Sum: {render: [number, percent]}}
      - name: GXCOPY:COUNT
        visible by default: false
      - name: GPUOP (sec)
"""


def _database(tmp_path, metrics, yaml=None):
    names = ["main", "kernel", "copy"]
    raw = RawProfile(
        nodes=pd.DataFrame({"node": [0, 1, 2], "parent": [-1, 0, 0], "name": names}),
        metrics=pd.DataFrame({"node": [0, 1, 2], **metrics}), exc_metrics=tuple(metrics))
    db = write_hpctoolkit_latest(raw, tmp_path / "db")
    if yaml is not None:
        (db / "metrics").mkdir()
        (db / "metrics" / "default.yaml").write_text(yaml)
    return db


GPU_ONLY = {"GXCOPY:COUNT": [0.0, 0.0, 4.0], "GINS": [0.0, 0.0, 0.0],
            "GPUOP (sec)": [0.0, 2.5, 1.0]}


def test_first_metric_hpcviewer_shows_that_has_values(tmp_path):
    db = _database(tmp_path, GPU_ONLY, YAML)   # GINS is first but all zero; GXCOPY hidden
    assert read_hpctoolkit_latest(db).default_metric == "GPUOP (sec) (inc)"


def test_without_a_taxonomy_the_first_inclusive_metric_with_values(tmp_path):
    db = _database(tmp_path, GPU_ONLY)
    assert read_hpctoolkit_latest(db).default_metric == "GXCOPY:COUNT (inc)"


def test_time_first_unless_it_is_all_zero(tmp_path):
    with_time = {"GPUOP (sec)": [0.0, 2.5, 1.0], "time": [1.0, 0.0, 0.0]}
    assert read_hpctoolkit_latest(_database(tmp_path / "a", with_time, YAML)).default_metric \
        == "time (inc)"
    zero_time = {"GPUOP (sec)": [0.0, 2.5, 1.0], "time": [0.0, 0.0, 0.0]}
    assert read_hpctoolkit_latest(_database(tmp_path / "b", zero_time, YAML)).default_metric \
        == "GPUOP (sec) (inc)"


EXPECTED = {
    "hatchet-gamess-v4-database": "time (inc)",        # REALTIME (sec)
    "hpcviewer-d.x-v4-database": "cycles (inc)",       # REALTIME (sec) is all zero
    "hpcviewer-derived-metrics-v4-database": "GPUOP (sec) (inc)",  # GINS... are all zero
    "hpcviewer-inline-v4-database": "cycles (inc)",
    "hpcviewer-issue-328-v4-database": "time (inc)",
    "hpcviewer-loop-fork-cycles-v4-database": "cycles (inc)",
    "hpcviewer-multithread-v4-database": "cycles (inc)",
    "pipit-ping-pong-v4-database": "time (inc)",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_databases_default_to_a_metric_with_values(shared_data, name):
    raw = read_hpctoolkit_latest(shared_data / "hpctoolkit" / name)
    assert raw.default_metric == EXPECTED[name]
    assert np.any(raw.metrics[raw.default_metric].to_numpy() != 0)
