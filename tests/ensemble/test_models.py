"""Ensemble.fit_models / graphframe.thicket.model_extrap: Extra-P models per node.

Extra-P (PyPI ``extrap``) is optional; it pins numpy < 2, so it is not in the ``dev``
extra and these tests skip without it (the missing-package error is tested always)."""

import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from graphframe import Ensemble, GraphFrame
from graphframe.ensemble import models
from graphframe.errors import ArgumentError

LULESH = "ensemble/hatchet-tutorial/lulesh-scaling"
PS = [1, 2, 4, 8, 16, 32, 64]


def study(ps=PS, reps=2, rows=None):
    """main = 3p + 1 (exclusive), lin = 3p, plogp = 2 p log2 p; `rows` optional extra node
    only present for p in the given set."""
    gfs, keys = [], []
    for p in ps:
        for _ in range(reps):
            children = [{"frame": {"name": "lin"}, "metrics": {"time": 3.0 * p}, "children": []},
                        {"frame": {"name": "plogp"}, "metrics": {"time": 2.0 * p * np.log2(p)},
                         "children": []}]
            if rows is not None and p in rows:
                children.append({"frame": {"name": "rare"}, "metrics": {"time": 1.0},
                                 "children": []})
            gfs.append(GraphFrame.from_literal([{"frame": {"name": "main"},
                                                 "metrics": {"time": 3.0 * p + 1},
                                                 "children": children}]))
            keys.append(p)
    return Ensemble.from_graphframes(gfs, metadata={"p": keys})


def test_without_extrap_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "extrap", None)
    monkeypatch.setitem(sys.modules, "extrap.entities.callpath", None)
    with pytest.raises(ArgumentError, match=r"graphframe\[extrap\]"):
        study().fit_models("p", "time")
    assert models.extrap_available() is False


def test_column_names():
    assert models.model_column("time (inc)", "SMAPE") == "time (inc)_SMAPE_extrap-model"


@pytest.fixture
def extrap():
    return pytest.importorskip("extrap", reason="Extra-P models need the optional extrap "
                                                "package (pip install 'graphframe[extrap]')")


def test_known_models_are_found(extrap):
    ens = study()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = ens.fit_models("p", "time")
    assert made == ["time_extrap-model"] + [f"time_{q}_extrap-model" for q in models.QUALITY]
    sf = ens.statsframe
    fitted = dict(zip(sf["name"], sf["time_extrap-model"]))
    lin, plogp, main = fitted["lin"], fitted["plogp"], fitted["main"]
    assert list(lin.coefficients) == ["c", "p^(1)"]
    assert lin.coefficients["p^(1)"] == pytest.approx(3.0, rel=1e-9)
    assert abs(lin.coefficients["c"]) < 1e-9
    assert list(plogp.coefficients) == ["c", "p^(1) * log2(p)^(1)"]
    assert plogp.coefficients["p^(1) * log2(p)^(1)"] == pytest.approx(2.0, rel=1e-9)
    assert main.coefficients["c"] == pytest.approx(1.0, rel=1e-9)
    assert main(128) == pytest.approx(385.0, rel=1e-9)
    np.testing.assert_allclose(plogp.eval([128, 256]), [1792.0, 4096.0], rtol=1e-9)
    assert "log2(p)" in str(plogp) and isinstance(plogp, models.ExtrapModel)
    np.testing.assert_allclose(sf["time_AR2_extrap-model"], 1.0, rtol=1e-9)
    assert (sf["time_RSS_extrap-model"] < 1e-12).all()


def test_nodes_with_too_few_points_get_no_model(extrap):
    ens = study(rows={1, 2, 4})            # "rare" measured at 3 of 7 points
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ens.fit_models("p", ["time"], add_stats=False)
    sf = ens.statsframe.set_index("name")
    assert sf.loc["rare", "time_extrap-model"] is None
    assert "time_AR2_extrap-model" not in sf.columns
    assert isinstance(sf.loc["lin", "time_extrap-model"], models.ExtrapModel)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ens.fit_models("p", ["time"], min_points=3)
    rare = ens.statsframe.set_index("name").loc["rare", "time_extrap-model"]
    assert rare.coefficients["c"] == pytest.approx(1.0)


def test_bad_arguments(extrap):
    ens = study()
    with pytest.raises(ArgumentError, match="no metadata column 'q'"):
        ens.fit_models("q", "time")
    with pytest.raises(ArgumentError, match="ranks="):
        ens.fit_models("p", "time", ranks="mode")
    ens.metadata["label"] = ["x"] * ens.num_profiles
    with pytest.raises(ArgumentError, match="must hold numbers"):
        ens.fit_models("label", "time")


def test_lulesh_scaling_allreduce_grows_with_log_p(extrap, shared_data):
    ens = Ensemble.read(str(shared_data / LULESH),
                        metadata=lambda p: {"ranks": int(re.search(r"-(\d+)core", str(p))[1])})
    ens.fit_models("ranks", "time (inc)")
    sf = ens.statsframe
    assert sf["time (inc)_extrap-model"].map(lambda m: m is not None).all()
    allreduce = sf.loc[sf["name"] == "MPI_Allreduce", "time (inc)_extrap-model"].iloc[0]
    # the collective's time per rank (ranks averaged) grows as log2 of the rank count
    terms = allreduce.coefficients
    assert list(terms) == ["c", "log2(p)^(1)"] and terms["log2(p)^(1)"] > 0
    per_point = ens.pivot("ranks", "time (inc)", by="node")[
        int(sf.index[sf["name"] == "MPI_Allreduce"][0])]
    assert allreduce(512) == pytest.approx(per_point.loc[512], rel=0.2)


def test_thicket_modeling_names(extrap):
    import graphframe.thicket as th
    gfs = [GraphFrame.from_literal([{"frame": {"name": "main"}, "metrics": {"time": 5.0 * p},
                                     "children": []}]) for p in PS]
    tk = th.Thicket.from_graphframes(gfs, metadata=pd.DataFrame({"np": PS}))
    mdl = th.model_extrap.Modeling(tk, "np", chosen_metrics=["time"])
    mdl.produce_models()
    wrapper = tk.statsframe.dataframe.loc[0, "time" + th.model_extrap.MODEL_TAG]
    assert isinstance(wrapper, th.model_extrap.ModelWrapper)
    assert wrapper.eval(10) == pytest.approx(50.0)
    mdl.componentize_statsframe()
    assert tk.statsframe.dataframe[("time_extrap-model", "p^(1)")].tolist() == \
        pytest.approx([5.0])
