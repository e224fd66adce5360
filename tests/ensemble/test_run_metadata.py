"""Every profile of an Ensemble gets path, format, rank and thread counts in its metadata
(issue 33 item 10); Thicket's tables keep the files' own metadata only."""

import pandas as pd

from graphframe import Ensemble, GraphFrame
from graphframe.thicket import Thicket

LULESH = "ensemble/hatchet-tutorial/lulesh-scaling"


def test_json_split_scaling_runs_get_path_format_ranks(shared_data):
    ens = Ensemble.read(shared_data / LULESH)
    meta = ens.metadata
    # the run columns, then what each file's reader recorded: the totals of the records
    # outside every annotated region (Caliper's no_path="drop")
    assert list(meta.columns) == ["path", "format", "ranks", "threads", "unattributed",
                                  "unattributed share"]
    names = meta["path"].map(lambda p: p.rsplit("/", 1)[-1]).tolist()
    assert names == [f"lulesh-annotation-profile-{n}core{'s' if n > 1 else ''}.json"
                     for n in (125, 1, 216, 27, 343, 512, 64, 8)]
    assert meta["format"].tolist() == ["caliper-json"] * 8
    assert meta["ranks"].tolist() == [125, 1, 216, 27, 343, 512, 64, 8]
    assert meta["ranks"].dtype == "int64" and meta["threads"].tolist() == [1] * 8
    # the key plot scaling uses by default now groups and pivots
    assert ens.pivot("ranks", "time (inc)").index.tolist() == [1, 8, 27, 64, 125, 216, 343,
                                                                512]


def test_threads_counted_and_file_metadata_kept(shared_data):
    ens = Ensemble.read([shared_data / "hpctoolkit" / "hatchet-osu-allgather-database",
                         shared_data / "tau" / "hatchet-tau-cpi-mpi"])
    meta = ens.metadata
    assert meta[["format", "ranks", "threads"]].values.tolist() == [
        ["hpctoolkit", 10, 2], ["tau", 4, 1]]
    assert meta.loc[0, "experiment"] == "osu_allgather"   # the reader's own metadata stays


def test_user_metadata_wins_and_from_graphframes_counts_too():
    gfs = [GraphFrame.from_lists(("main", "solve")), GraphFrame.from_lists(("main", "x"))]
    ens = Ensemble.from_graphframes({"a": gfs[0], "b": gfs[1]}, metadata={"ranks": [4, 8]})
    assert ens.metadata.to_dict("list") == {"path": ["a", "b"], "format": [None, None],
                                            "ranks": [4, 8], "threads": [1, 1]}


def test_thicket_metadata_is_the_files_own(shared_data):
    tk = Thicket.from_caliperreader(str(shared_data / "caliper/thicket/mpi_scaling_cali"),
                                    disable_tqdm=True)
    assert not {"path", "format", "ranks"} & set(tk.metadata.columns)
    # Caliper's own "threads" global stays where Thicket has it
    assert list(tk.metadata.columns[:3]) == ["cali.caliper.version", "mpi.world.size",
                                             "spot.metrics"]
    assert "threads" in tk.metadata.columns
    tk2 = Thicket.from_graphframes([GraphFrame.from_lists(("main", "a"))] * 2,
                                   metadata=pd.DataFrame({"ranks": [1, 2]}))
    assert list(tk2.metadata.columns) == ["ranks"]  # a user's column of that name stays
