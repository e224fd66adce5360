"""Progress reports while reading: every format, measured progress, tqdm or the text bar."""

import io
import json
import sys
import types

import pytest

import graphframe
import graphframe_readers
from graphframe.cli import main
from graphframe_readers.progress import Progress, ProgressOptionError, callback_for, text_bar


def test_progress_bar_for_hpctoolkit(shared_data, capsys):
    out = io.StringIO()
    code = main(["tree", str(shared_data / "hpctoolkit" / "hatchet-cpi-database"), "--progress",
                 "--no-color", "--depth", "1"], stdout=out)
    assert code == 0
    assert out.getvalue().splitlines()[2].endswith("<program root> <unknown file>")
    err = capsys.readouterr().err
    # our text bar prints "4/4 metric files"; with tqdm installed its bar prints
    # "metric files: 100%|...| 4/4"
    assert "bytes of experiment.xml" in err and "metric files" in err and "4/4" in err


@pytest.fixture
def literal(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('[{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]')
    return p


def test_progress_on_the_command_line_for_any_reader(literal, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    out = io.StringIO()
    assert main(["tree", str(literal), "--progress", "--no-header"], stdout=out) == 0
    assert out.getvalue() == "1.000 main\n"
    assert capsys.readouterr().err == ("\r[..............................] 0/1 nodes of the literal"
                                       "\r[##############################] 1/1 nodes of the "
                                       "literal\n")


def hatchet_json(tmp_path):
    p = tmp_path / "h.json"
    p.write_text(graphframe.GraphFrame.from_lists(("main", "solve")).to_json())
    return p


def test_every_format_accepts_progress(tmp_path):
    # a reader without its own reports: the registry reports start and end
    p = hatchet_json(tmp_path)
    seen = []
    gf = graphframe.read(p, progress=lambda *a: seen.append(a))
    assert gf.graph.num_nodes == 2
    assert seen == [(0, 1, "hatchet-json read of h.json"), (1, 1, "hatchet-json read of h.json")]
    seen.clear()
    graphframe.GraphFrame.read(p, format="hatchet-json", progress=lambda *a: seen.append(a))
    assert len(seen) == 2
    # every registered reader either takes progress= or is wrapped by the registry
    for name in graphframe_readers.formats():
        assert callable(graphframe_readers.format_info(name).read)


def test_caliper_json_reports_bytes_as_it_decodes(tmp_path):
    from benchmarks.generate import generate
    from graphframe_readers.testing import write_caliper_json
    path = tmp_path / "big.json"
    write_caliper_json(generate(20000, ranks=4, seed=1), path)
    size = path.stat().st_size
    seen = []
    raw = graphframe_readers.read(path, progress=lambda *a: seen.append(a))
    assert raw.num_nodes == 20000
    what = f"bytes of {path.name}"
    assert seen[0] == (0, size, what) and seen[-1] == (size, size, what)
    done = [d for d, _, _ in seen]
    assert done == sorted(done) and len(done) > 3  # several blocks reported as they go


def test_literal_reports_nodes(tmp_path):
    from benchmarks.generate import generate
    from graphframe_readers.testing import write_literal
    path = tmp_path / "big.literal.json"
    write_literal(generate(20000, ranks=0, seed=1), path)
    seen = []
    raw = graphframe_readers.read(path, progress=lambda *a: seen.append(a))
    assert raw.num_nodes == 20000
    assert seen[0] == (0, 20000, "nodes of the literal")
    assert [d for d, _, _ in seen[1:]] == [8192, 16384, 20000]


def test_progress_argument_values(literal, monkeypatch):
    assert callback_for(None) is None and callback_for(False) is None
    assert callback_for("text") is text_bar
    with pytest.raises(ProgressOptionError, match="progress='loud'"):
        graphframe.read(literal, progress="loud")
    monkeypatch.setitem(sys.modules, "tqdm", None)
    assert callback_for(True) is text_bar
    with pytest.raises(ProgressOptionError, match='needs the tqdm package'):
        callback_for("tqdm")


def test_tqdm_is_used_when_installed(literal, monkeypatch):
    bars = []

    class FakeTqdm:
        def __init__(self, **kw):
            self.kw, self.n, self.closed = kw, 0, False
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    graphframe.read(literal, progress=True)
    assert len(bars) == 1
    assert (bars[0].kw["total"], bars[0].kw["desc"], bars[0].n, bars[0].closed) == \
        (1, "nodes of the literal", 1, True)
    p = Progress("tqdm", 100, "bytes of x.cali")
    p.step(40)
    p.finish()
    assert bars[1].kw["unit"] == "B" and bars[1].n == 100 and bars[1].closed
