"""Caliper timeseries split into one profile per iteration block (issue 14 item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphframe import GraphFrame
from graphframe_readers.caliper.timeseries import read_caliper_timeseries
from graphframe_readers.errors import ArgumentError

HEAD = ("__rec=node,id=12,attr=10,data=268,parent=3\n"
        "__rec=node,id=13,attr=8,data=region,parent=12\n"
        "__rec=node,id=14,attr=10,data=2113,parent=5\n"
        "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\n"
        "__rec=node,id=18,attr=8,data=loop.start_iteration,parent=14\n"
        "__rec=node,id=16,attr=13,data=main\n"
        "__rec=node,id=17,attr=13,data=solve,parent=16\n")


def write(tmp_path: Path, records: str) -> str:
    path = tmp_path / "ts.cali"
    path.write_text(HEAD + records)
    return str(path)


def times(raws):
    return [dict(zip(r.nodes["name"], r.metrics["time"])) for r in raws]


def test_a_block_starts_where_the_level_changes_and_unlabelled_records_stay(tmp_path):
    path = write(tmp_path,
                 "__rec=ctx,ref=16,attr=15,data=9.0\n"          # no level: block of 0
                 "__rec=ctx,ref=17,attr=15=18,data=1.0=0\n"
                 "__rec=ctx,ref=17,attr=15=18,data=2.0=0\n"     # same block: merged
                 "__rec=ctx,ref=17,attr=15=18,data=4.0=5\n"
                 "__rec=ctx,ref=16,attr=15,data=8.0\n"          # stays in block 5
                 "__rec=ctx,ref=17,attr=15=18,data=16.0=0\n")   # back to 0: a new block
    assert times(read_caliper_timeseries(path)) == [
        {"main": 9.0, "solve": 3.0}, {"main": 8.0, "solve": 4.0}, {"main": 0.0, "solve": 16.0}]


def test_a_file_that_starts_at_another_iteration_has_no_empty_block(tmp_path):
    path = write(tmp_path, "__rec=ctx,ref=17,attr=15=18,data=1.0=4\n"
                           "__rec=ctx,ref=17,attr=15=18,data=2.0=6\n")
    assert times(read_caliper_timeseries(path)) == [{"main": 0.0, "solve": 1.0},
                                                    {"main": 0.0, "solve": 2.0}]


def test_an_unknown_level_names_the_attributes(tmp_path):
    path = write(tmp_path, "__rec=ctx,ref=17,attr=15=18,data=1.0=0\n")
    with pytest.raises(ArgumentError, match=r"no record has the attribute 'iter'.*"
                                            r"loop.start_iteration"):
        read_caliper_timeseries(path, level="iter")


def test_from_timeseries_on_lulesh(shared_data: Path):
    path = shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali"
    gfs = GraphFrame.from_timeseries(str(path), no_path="keep")
    assert len(gfs) == 50 and all(g.graph is gfs[0].graph for g in gfs)
    assert {g.dataframe.shape for g in gfs} == {(20, 19)}  # with the '<no path>' root
    firsts = [sorted(set(g.dataframe["loop.start_iteration"].dropna())) for g in gfs[:3]]
    assert firsts == [[0.0], [2.0], [4.0]]
    # every record of a block counts (Hatchet keeps the first per node: 768941945, 136;
    # the '<no path>' records add 13458791 and 1 to block 0)
    assert gfs[0].dataframe["sum#time.duration.ns"].sum() == 993754367.0
    assert [g.dataframe["count"].sum() for g in gfs[:3]] == [381.0, 380.0, 380.0]
    dropped = GraphFrame.from_timeseries(str(path))  # the default, as Hatchet
    assert dropped[0].dataframe.shape == (19, 19)
    assert "unattributed" not in dropped[0].metadata  # the file's total is not one block's
    assert dropped[0].dataframe["sum#time.duration.ns"].sum() == 980295576.0
    # the blocks add up to the whole file read as one profile
    whole = GraphFrame.from_caliperreader(str(path), no_path="keep")
    def by_name(gf, column):
        return dict(zip(gf.dataframe["name"], gf.dataframe[column]))
    for column in ("sum#time.duration.ns", "count"):
        total = {name: sum(by_name(g, column)[name] for g in gfs) for name in by_name(gfs[0], column)}
        assert total == by_name(whole, column)
