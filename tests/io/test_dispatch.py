"""One dispatcher decides what a path is: graphframe.read, GraphFrame.read, load and the CLI."""

import io
import json

import pytest

import graphframe
from graphframe import GraphFrame, ReadError, UnknownFormatError
from graphframe.cli import main
from graphframe.errors import ArgumentError
from graphframe.examples import example_graphframe
from tests.corpus import assert_same


@pytest.fixture
def archive(tmp_path):
    gf = example_graphframe()
    return gf, gf.save(tmp_path / "run.gfz")


def test_read_opens_an_archive_like_load(archive):
    gf, path = archive
    assert_same(gf, graphframe.read(path))
    assert_same(gf, GraphFrame.read(path))
    assert_same(gf, graphframe.read(str(path), format="graphframe"))
    assert_same(gf, graphframe.load(path))


def test_an_archive_is_recognised_by_its_bytes_not_its_name(archive, tmp_path):
    gf, path = archive
    renamed = tmp_path / "profile.data"
    renamed.write_bytes(path.read_bytes())
    assert_same(gf, graphframe.read(renamed))


def test_the_cli_reads_what_graphframe_read_reads(archive):
    gf, path = archive
    out = io.StringIO()
    assert main(["tree", str(path), "--no-header", "--no-color", "--depth", "1"], stdout=out) == 0
    assert out.getvalue() == gf.tree(render_header=False, depth=1)


def test_formats_lists_the_readers_the_traces_then_the_archive():
    import graphframe_readers

    assert graphframe.formats() == (graphframe_readers.formats() + graphframe_readers.formats("trace")
                                    + ["graphframe"])


def test_archives_take_no_reader_options(archive):
    _, path = archive
    graphframe.read(path, progress=True)  # accepted (and ignored) like every reader's
    with pytest.raises(ArgumentError, match="the graphframe format takes no options but "
                                            "progress \\(ignored\\); got metrics"):
        graphframe.read(path, metrics=["time"])


def test_load_refuses_what_is_not_an_archive(tmp_path):
    p = tmp_path / "p.json"
    p.write_text(json.dumps([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]))
    assert graphframe.read(p).dataframe["time"].tolist() == [1.0]
    with pytest.raises(ReadError, match="p.json: not a graphframe archive"):
        graphframe.load(p)
    with pytest.raises(ReadError, match="p.json: not a graphframe archive"):
        graphframe.read(p, format="graphframe")


def test_an_unknown_input_lists_every_format_including_archives(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("nothing a profiler writes\n")
    with pytest.raises(UnknownFormatError, match="notes.txt: no reader recognises this input "
                                                 "\\(expected one of the formats: .*, graphframe, .*\\)"):
        graphframe.read(p)
    with pytest.raises(UnknownFormatError, match="notes.txt: unknown format 'bogus'.*graphframe.*\\)"):
        graphframe.read(p, format="bogus")


def test_a_to_json_file_is_read_back_exactly(tmp_path):
    gf = example_graphframe()
    p = tmp_path / "gf.json"
    p.write_text(gf.to_json())
    assert_same(gf, graphframe.read(p))
