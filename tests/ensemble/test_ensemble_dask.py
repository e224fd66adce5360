"""Reading an Ensemble on a Dask cluster (a LocalCluster with threads)."""

import json

import pytest

from graphframe import Ensemble

distributed = pytest.importorskip("distributed", reason="Dask is the optional 'dask' extra")


def write_profiles(folder, count):
    for i in range(count):
        doc = [{"frame": {"name": "main"}, "metrics": {"time": float(i)},
                "children": [{"frame": {"name": f"k{i % 3}"}, "metrics": {"time": 2.0}}]}]
        (folder / f"run{i:02d}.json").write_text(json.dumps(doc))
    (folder / "broken.json").write_text("[{")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_gives_the_same_ensemble_as_one_process(tmp_path, client):
    write_profiles(tmp_path, 20)
    seen = []
    on_dask = Ensemble.read(tmp_path, client=client, on_error="skip",
                            progress=lambda done, total, what: seen.append((done, total)))
    here = Ensemble.read(tmp_path, on_error="skip")
    assert on_dask.graph == here.graph and on_dask.graph.num_nodes == 4
    assert on_dask.dataframe.equals(here.dataframe)
    assert on_dask.profiles.equals(here.profiles)
    assert on_dask.errors["path"].str.endswith("broken.json").tolist() == [True]
    assert seen[0] == (0, 21) and seen[-1] == (21, 21)
