"""Ensemble.save / Ensemble.load: lossless, byte-reproducible, versioned."""

import json
import zipfile

import pytest

from graphframe import Ensemble, GraphFrame
from graphframe.errors import ReadError


@pytest.fixture
def ens():
    gfs = [GraphFrame.from_lists(("main", ("solve", "mpi"))), GraphFrame.from_lists(("main", "io"))]
    out = Ensemble.from_graphframes(gfs, metadata={"flags": [("-O2",), ("-O3", "-g")],
                                                   "size": [1.5, 2.0]})
    return out.replace(statsframe=out.statsframe.assign(time_mean=[1.0, 2.0, 3.0, 4.0]))


def test_round_trip_is_exact(ens, tmp_path):
    back = Ensemble.load(ens.save(tmp_path / "e.gfe"))
    assert back.graph == ens.graph
    for field in ("dataframe", "profiles", "metadata", "statsframe", "errors"):
        a, b = getattr(ens, field), getattr(back, field)
        assert a.equals(b) and list(a.dtypes) == list(b.dtypes), field
    assert back.metadata["flags"].tolist() == [("-O2",), ("-O3", "-g")]
    assert (back.exc_metrics, back.inc_metrics, back.default_metric) == \
        (ens.exc_metrics, ens.inc_metrics, ens.default_metric)


def test_bytes_are_reproducible(ens, tmp_path):
    a = ens.save(tmp_path / "a.gfe").read_bytes()
    b = ens.save(tmp_path / "b.gfe").read_bytes()
    assert a == b


def test_grouped_labels_survive(ens, tmp_path):
    agg = ens.groupby("size").agg("mean")
    back = Ensemble.load(agg.save(tmp_path / "g.gfe"))
    assert back.dataframe.equals(agg.dataframe) and back.metadata.index.tolist() == [1.5, 2.0]


def test_bad_archives_are_read_errors(ens, tmp_path):
    bad = tmp_path / "bad.gfe"
    bad.write_text("not a zip")
    with pytest.raises(ReadError, match="not an ensemble archive"):
        Ensemble.load(bad)
    newer = tmp_path / "newer.gfe"
    with zipfile.ZipFile(ens.save(tmp_path / "ok.gfe")) as src, \
            zipfile.ZipFile(newer, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "ensemble.json":
                doc = json.loads(data)
                doc["version"] = 99
                data = json.dumps(doc).encode()
            dst.writestr(item, data)
    with pytest.raises(ReadError, match="version 99"):
        Ensemble.load(newer)
