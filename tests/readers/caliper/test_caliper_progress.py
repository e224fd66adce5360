"""Progress reports while .cali files are decoded (issue 8: progress on long reads)."""

import os

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers.caliper.cali import text as caliper_calitext

CALI = ("__rec=node,id=12,attr=10,data=268,parent=3\n"
        "__rec=node,id=13,attr=8,data=region,parent=12\n"
        "__rec=node,id=14,attr=10,data=2113,parent=5\n"
        "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\n"
        "__rec=node,id=16,attr=13,data=main\n"
        "__rec=ctx,ref=16,attr=15,data=1.5\n")


def test_progress_counts_every_byte_of_every_file(tmp_path, monkeypatch):
    monkeypatch.setattr(caliper_calitext, "LINE_BLOCK", 64)  # several blocks per file
    for rank in range(2):
        (tmp_path / f"p-{rank}.cali").write_text(CALI)
    seen = []
    raw = graphframe_readers.read(tmp_path, format="caliper", progress=lambda d, t, w: seen.append((d, t, w)))
    total = sum(os.path.getsize(tmp_path / f"p-{r}.cali") for r in range(2))
    assert raw.metrics["time"].tolist() == [1.5, 1.5]
    assert len(seen) > 2
    assert [s[1] for s in seen] == [total] * len(seen)
    assert seen[-1][0] == total and seen[-1][2] == "bytes of .cali files"
    assert [s[0] for s in seen] == sorted(s[0] for s in seen)


def test_progress_bar_on_stderr_through_the_constructor(tmp_path, capsys):
    path = tmp_path / "p.cali"
    path.write_text(CALI)
    gf = GraphFrame.from_caliperreader(path, progress=True)
    assert gf.dataframe["time"].tolist() == [1.5]
    err = capsys.readouterr().err
    assert "bytes of .cali files" in err
    assert GraphFrame.from_caliperreader(path).dataframe["time"].tolist() == [1.5]
    assert capsys.readouterr().err == ""
