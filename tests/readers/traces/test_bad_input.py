"""The six problems of issue 34, each rebuilt from a real trace (or by hand).

Each test asserts the error class, the file the message names and, where it applies, the
position. Hostile inputs run in a child process under the suite's limits (20 s, 2 GiB).
"""

from __future__ import annotations

import gzip
import shutil
import warnings

import pytest

import graphframe_readers.traces as rt
from graphframe.traces.read import read_trace
from graphframe_readers import MissingMembersError, ReadError
from graphframe_readers.testing import corrupt
from graphframe_readers.testing.decoders import read_summary
from graphframe_readers.testing.isolation import run_isolated
from graphframe_readers.traces.limits import MAX_EVENT_BYTES, MAX_RATIO
from graphframe_readers.traces.warnings import TraceWarning
from tests.trace_collect import Collect, located

CHROME = "chrome-trace/generated/workload.viztracer.json"
HELLO = "traces/projections/hello-1darray-projections"
OTF2 = "otf2/pipit-ping-pong-otf2"
DUMPI = "traces/dumpi/rma-fence/traces/np3"
RECORDER = "traces/recorder/recorder-simple"
HPCTOOLKIT = "hpctoolkit/pipit-ping-pong-v4-database"


def copy_of(shared_data, rel, tmp_path):
    dest = tmp_path / "copy"
    src = shared_data / rel
    if src.is_dir():
        shutil.copytree(src, dest)
    else:
        dest.mkdir()
        shutil.copyfile(src, dest / src.name)
        dest = dest / src.name
    for p in (dest.rglob("*") if dest.is_dir() else [dest]):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return dest


def isolated_read(path, format=None, **options):
    rt.trace_formats()  # decoders imported here, not in the child
    return run_isolated(read_summary, str(path), format, options)


# ------------------------------------------------------------------ 1. a huge string
def _long_names(path):
    events = read_trace(path).events
    return [len(n) for n in events.name[events.name.str.len() > 1000].unique()]


def test_chrome_50_mib_name_reads_in_linear_time(shared_data, tmp_path):
    """One name of 50 MiB took about 60 s to intern (hashing over the longest value) and
    the events table then sorted its names as fixed-width strings (gigabytes)."""
    path = copy_of(shared_data, CHROME, tmp_path)
    data = path.read_bytes()
    at = data.index(b'"name": "FileFinder') + len(b'"name": "')
    path.write_bytes(corrupt.insert_run(data, at, 50 << 20))
    rt.trace_formats()
    out = run_isolated(_long_names, path)
    assert out.status == "ok", out.describe()
    name = "FileFinder.find_spec (<frozen importlib._bootstrap_external>:1604)"
    assert out.value == [(50 << 20) + len(name)]


def test_chrome_event_over_the_limit_is_a_located_error(shared_data, tmp_path):
    path = copy_of(shared_data, CHROME, tmp_path)
    data = path.read_bytes()
    event = data.index(b'{"pid": 14485, "tid": 14485, "ts": 1065151084.666')
    at = data.index(b'"name": "', event) + len(b'"name": "')
    path.write_bytes(corrupt.insert_run(data, at, MAX_EVENT_BYTES + 1))
    out = isolated_read(path)
    assert out.is_read_error, out.describe()
    assert out.source == str(path) and out.position == f"byte {event}"
    assert f"an event longer than {MAX_EVENT_BYTES >> 20} MiB" in out.message


def test_chrome_deeply_nested_args_are_bounded(tmp_path):
    path = tmp_path / "nested.json"
    path.write_bytes(b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": '
                     + b"[" * (8 << 20) + b"]" * (8 << 20) + b"}]")
    out = isolated_read(path)
    assert out.is_read_error, out.describe()
    assert (out.source, out.position) == (str(path), "byte 1")
    assert "structural characters" in out.message


# ------------------------------------------------------------------ 2. gzip bombs, streams
def test_projections_gzip_bomb_is_an_error_in_bounded_memory(shared_data, tmp_path):
    """A .log.gz inflating to 4 GiB was inflated whole into memory."""
    folder = copy_of(shared_data, HELLO, tmp_path)
    log = folder / "hello.0.log.gz"
    text = gzip.decompress(log.read_bytes())
    header, record = text.split(b"\n")[:2]
    log.write_bytes(corrupt.gzip_member(header + b"\n")
                    + corrupt.gzip_bomb(4 << 30, record + b"\n"))
    out = isolated_read(folder)
    assert out.is_read_error, out.describe()
    assert out.source == str(log) and out.position.startswith("compressed byte ")
    assert f"inflates more than {MAX_RATIO} times" in out.message


def test_projections_log_of_several_gzip_members_reads_whole(shared_data, tmp_path):
    """Only the first gzip member was read (a silent partial read)."""
    folder = copy_of(shared_data, HELLO, tmp_path)
    before = read_trace(folder).events
    log = folder / "hello.0.log.gz"
    text = gzip.decompress(log.read_bytes())
    cut = text.index(b"\n", len(text) // 2) + 1
    log.write_bytes(gzip.compress(text[:cut]) + gzip.compress(text[cut:]))
    after = read_trace(folder).events
    assert after.equals(before)


def test_projections_invalid_utf8_inside_the_gzip_is_located(shared_data, tmp_path):
    folder = copy_of(shared_data, HELLO, tmp_path)
    log = folder / "hello.1.log.gz"
    text = gzip.decompress(log.read_bytes())
    at = text.index(b"\n", 100) + 1          # the first byte of a record line
    line = text.count(b"\n", 0, at) + 1
    log.write_bytes(gzip.compress(corrupt.invalid_utf8(text, at)))
    with pytest.raises(ReadError, match="not valid UTF-8") as err:
        read_trace(folder)
    assert located(err, "hello.1.log.gz") == ("hello.1.log.gz", f"byte {at}", "UTF-8 text")
    assert line > 1


# ------------------------------------------------------------------ 3. DUMPI .meta
@pytest.mark.parametrize("damage", ["flip", "utf8"])
def test_dumpi_meta_with_a_bad_byte_is_a_read_error(shared_data, tmp_path, damage):
    """A flipped byte or invalid UTF-8 in the .meta raised a bare UnicodeDecodeError."""
    folder = copy_of(shared_data, DUMPI, tmp_path)
    meta = next(folder.glob("*.meta"))
    data = meta.read_bytes()
    at = data.index(b"username=")
    meta.write_bytes(corrupt.flip(data, at) if damage == "flip" else corrupt.invalid_utf8(data, at))
    with pytest.raises(ReadError, match="the text is not valid UTF-8") as err:
        read_trace(folder)
    assert located(err, meta.name) == (meta.name, f"line 3, byte {at}", "UTF-8 text")


# ------------------------------------------------------------------ 4. missing members
def test_otf2_empty_local_definitions_are_an_error(shared_data, tmp_path):
    """An empty traces/0.def read without an error; rank 0's messages got the wrong comm."""
    pytest.importorskip("otf2")
    folder = copy_of(shared_data, OTF2, tmp_path)
    (folder / "traces" / "0.def").write_bytes(b"")
    with pytest.raises(ReadError) as err:
        read_trace(folder)
    assert type(err.value) is ReadError
    assert located(err, "0.def") == ("0.def", "byte 0", "the bytes 02 01 that end every OTF2 file")


def test_otf2_missing_location_file_is_named(shared_data, tmp_path):
    pytest.importorskip("otf2")
    folder = copy_of(shared_data, OTF2, tmp_path)
    (folder / "traces" / "0.def").unlink()
    with pytest.raises(MissingMembersError, match=r"location 0 \(rank 0\) \.def is missing: "
                       r"no 0\.def") as err:
        read_trace(folder)
    assert err.value.missing == {"location 0 (rank 0) .def": str(folder / "traces" / "0.def")}
    assert err.value.source == str(folder / "traces.otf2")
    with pytest.warns(TraceWarning, match="0.def") as caught:
        tf = read_trace(folder, missing="warn")
    assert len([w for w in caught if "missing" in str(w.message)]) == 1
    assert sorted(tf.events["rank"].unique()) == [1]
    assert tf.definitions.metadata["missing"] == {
        "location 0 (rank 0) .def": str(folder / "traces" / "0.def")}


def test_projections_missing_processor_log_is_named(shared_data, tmp_path):
    """A folder missing one processor's log read the others although the .sts declares 2."""
    folder = copy_of(shared_data, HELLO, tmp_path)
    (folder / "hello.1.log.gz").unlink()
    with pytest.raises(MissingMembersError) as err:
        read_trace(folder)
    assert str(err.value) == (f"{folder / 'hello.sts'}: PROCESSORS 2 but processor 1 is "
                              "missing: no hello.1.log.gz (expected every declared rank's "
                              "file, or missing='warn' to read the others)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf = read_trace(folder, missing="warn")
    mine = [w for w in caught if issubclass(w.category, TraceWarning)
            and "processor 1" in str(w.message)]
    assert len(mine) == 1
    assert tf.events["rank"].unique().tolist() == [0]
    assert tf.definitions.metadata["missing"] == {
        "processor 1": str(folder / "hello.1.log.gz")}


def test_dumpi_and_recorder_missing_ranks_are_named(shared_data, tmp_path):
    folder = copy_of(shared_data, DUMPI, tmp_path / "d")
    victim = next(folder.glob("*-0001.bin"))
    victim.unlink()
    with pytest.raises(MissingMembersError, match=f"numprocs=3 but rank 1 is missing: "
                                                  f"no {victim.name}") as err:
        read_trace(folder)
    assert err.value.missing == {"rank 1": str(victim)}
    with pytest.warns(TraceWarning, match="rank 1"):
        assert sorted(read_trace(folder, missing="warn").events["rank"].unique()) == [0, 2]
    rec = copy_of(shared_data, RECORDER, tmp_path / "r")
    (rec / "1.mt").unlink()
    with pytest.raises(MissingMembersError, match="2 ranks but rank 1 is missing: no 1.mt"):
        read_trace(rec)


def test_missing_takes_error_or_warn(shared_data):
    from graphframe_readers import ArgumentError

    with pytest.raises(ArgumentError, match="missing='ignore'"):
        read_trace(shared_data / HELLO, missing="ignore")


# ------------------------------------------------------------------ 5. Chrome JSON as a whole
@pytest.mark.parametrize("where", [b'"cat": "fee"', b'"traceEvents"'])
def test_chrome_invalid_utf8_in_a_skipped_part_is_located(shared_data, tmp_path, where):
    """Invalid UTF-8 was accepted in members the reader skips (``cat``) or in the
    object around the events."""
    path = copy_of(shared_data, CHROME, tmp_path)
    data = path.read_bytes()
    at = data.index(where) + 2
    path.write_bytes(corrupt.invalid_utf8(data, at))
    with pytest.raises(ReadError, match="the text is not valid UTF-8") as err:
        read_trace(path, format="chrome", args=False)
    assert located(err, path.name) == (path.name, f"byte {at}", "UTF-8 text")


def test_chrome_invalid_utf8_with_workers(shared_data, tmp_path):
    path = copy_of(shared_data, CHROME, tmp_path)
    data = path.read_bytes()
    at = data.rindex(b'"cat": "fee"') + 2
    path.write_bytes(corrupt.invalid_utf8(data, at))
    with pytest.raises(ReadError, match="not valid UTF-8") as err:
        rt.decode(rt.FileSource(path, block_size=4096), Collect(), format="chrome", jobs=2)
    assert err.value.position == f"byte {at}"


# ------------------------------------------------------------------ 6. the file given
@pytest.mark.parametrize("format, rel", [("recorder", RECORDER),
                                         ("hpctoolkit-trace", HPCTOOLKIT)])
def test_a_file_of_another_format_is_named_never_its_neighbour(shared_data, tmp_path, format,
                                                                rel):
    """format="recorder"/"hpctoolkit-trace" on a file of another kind read the trace that
    lay beside it (or named recorder.mt / trace.db)."""
    folder = copy_of(shared_data, rel, tmp_path)
    foreign = folder / "workload.json"
    shutil.copyfile(shared_data / CHROME, foreign)
    with pytest.raises(ReadError) as err:
        read_trace(foreign, format=format)
    assert type(err.value) is ReadError
    name, position, expected = located(err, "workload.json")
    assert name == "workload.json"
    assert "not a file of a Recorder trace" in str(err.value) if format == "recorder" \
        else "not an HPCToolkit trace.db" in str(err.value)
    assert position == ("the file name" if format == "recorder" else "byte 0")


def test_a_renamed_trace_db_is_read_itself(shared_data, tmp_path):
    folder = copy_of(shared_data, HPCTOOLKIT, tmp_path)
    before = read_trace(folder).events
    (folder / "trace.db").rename(folder / "other.db")
    assert read_trace(folder / "other.db", format="hpctoolkit-trace").events.equals(before)
