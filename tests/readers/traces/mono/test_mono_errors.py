"""Bad input: every failure is a ReadError naming the file, the buffer, the event and what
was expected; nothing is skipped silently."""

from __future__ import annotations

import gzip
import re
import struct

import pytest

import graphframe
from graphframe_readers import ReadError
from graphframe_readers.testing.writers.mlpd import MlpdWriter
from graphframe_readers.traces.mono.handler import MonoHandler, run
from graphframe_readers.traces.sources import FileSource, MemorySource

HEADER = 72   # the writer's header with its default strings


def log(version=17, events=None):
    w = MlpdWriter(version=version)
    w.buffer(thread=5, events=events if events is not None else [
        w.jit(10, 0x7000, 0x9000, 8, "A:Main ()"), w.enter(20, 0x7000),
        w.alloc(25, 0x60, 0x1000, 40), w.leave(30, 0x7000)])
    w.buffer(thread=6, events=[w.enter(40, 0x7000), w.leave(50, 0x7000)])
    return w.getvalue()


def decode(data: bytes, name="bad.mlpd"):
    return run(MemorySource(data, name=name), MonoHandler())


def test_the_log_itself_decodes():
    assert decode(log()).header.data_version == 17


def test_wrong_magic():
    data = b"\x02" + log()[1:]
    with pytest.raises(ReadError, match=r"bad.mlpd: byte 0: wrong magic number 0x4d505a02 "
                                        r"\(expected 0x4d505a01"):
        decode(data)


@pytest.mark.parametrize("version", [12, 18])
def test_unsupported_data_version(version):
    data = bytearray(log())
    data[6] = version
    with pytest.raises(ReadError, match=f"byte 6: unsupported data version {version} "
                                        r"\(expected data version 13 to 17\)"):
        decode(bytes(data))


@pytest.mark.parametrize("cut", [5, 30, HEADER + 20, HEADER + 48 + 10, -3])
def test_truncated_file(cut):
    data = log()
    with pytest.raises(ReadError) as err:
        decode(data[:cut])
    text = str(err.value)
    assert text.startswith("bad.mlpd: ")
    assert re.search(r"(ends inside|too short)", text)
    if cut == -3:
        assert "buffer at byte" in text and "truncated file" in text


def test_truncated_real_file(tmp_path, shared_data):
    src = shared_data / "traces" / "mono-mlpd" / "mlpd" / "sample.mlpd"
    data = src.read_bytes()
    bad = tmp_path / "cut.mlpd"
    bad.write_bytes(data[:len(data) // 2])
    with pytest.raises(ReadError, match=r"cut.mlpd: buffer at byte \d+: the file ends inside "
                                        r"a buffer"):
        graphframe.read(bad)


def test_wrong_buffer_id():
    data = bytearray(log())
    data[HEADER] = 0x07
    with pytest.raises(ReadError, match=rf"byte {HEADER}: wrong buffer id 0x4d504c07"):
        decode(bytes(data))


def test_corrupt_leb128():
    w = MlpdWriter()
    good = log(events=[w.enter(20, 0x7000), w.leave(30, 0x7000)])
    data = bytearray(good)
    start = HEADER + 48
    assert data[start] == 0x23 and data[start + 1] < 0x80   # enter, a one-byte time delta
    # the time: eleven continuation bytes before its last byte (12 bytes, at most 10 allowed)
    data[start + 1:start + 2] = bytes([0x80] * 11 + [data[start + 1]])
    length = struct.unpack_from("<I", data, HEADER + 4)[0] + 11
    data[HEADER + 4:HEADER + 8] = struct.pack("<I", length)
    with pytest.raises(ReadError) as err:
        decode(bytes(data))
    text = str(err.value)
    assert f"buffer at byte {HEADER}, event 0x23 at byte {HEADER + 48}" in text
    assert "longer than 10 bytes" in text and "corrupt data" in text


def test_unknown_event_kind():
    w = MlpdWriter()
    data = log(events=[w.enter(20, 0x7000), [("byte", 0x0B), ("time", 25)], w.leave(30, 0x7000)])
    with pytest.raises(ReadError, match=rf"buffer at byte {HEADER}, event 0x0b at byte "
                                        rf"{HEADER + 48 + 5}: unknown event kind 0x0b \(type 11"):
        decode(data)


@pytest.mark.parametrize("code", [0x27, 0x09, 0x19])   # gone after version 15
def test_event_kind_of_an_older_version_is_unknown(code):
    data = log(events=[[("byte", code), ("time", 25), ("uleb", 1), ("uleb", 2)]])
    with pytest.raises(ReadError, match=rf"unknown event kind 0x{code:02x} .* in data version 17"):
        decode(data)


def test_unknown_metadata_kind():
    data = log(events=[[("byte", 0x22), ("time", 25), ("byte", 9), ("ptr", 0)]])
    with pytest.raises(ReadError, match=r"event 0x22 at byte \d+: unknown metadata kind 9"):
        decode(data)


def test_event_running_past_its_buffer():
    w = MlpdWriter()
    data = bytearray(log(events=[w.enter(20, 0x7000), w.alloc(25, 0x60, 0x1000, 4000)]))
    # drop the last byte of the first buffer (the allocation's size) and fix its length
    length = struct.unpack_from("<I", data, HEADER + 4)[0]
    data[HEADER + 4:HEADER + 8] = struct.pack("<I", length - 1)
    del data[HEADER + 48 + length - 1]
    with pytest.raises(ReadError, match=rf"buffer at byte {HEADER}, event 0x00 at byte "
                                        rf"{HEADER + 48 + 5}: the event runs past the end of "
                                        r"its buffer"):
        decode(bytes(data))


def test_string_running_past_its_buffer():
    w = MlpdWriter()
    data = bytearray(log(events=[w.jit(10, 0x7000, 0x9000, 8, "A:Main ()")]))
    length = struct.unpack_from("<I", data, HEADER + 4)[0]
    data[HEADER + 4:HEADER + 8] = struct.pack("<I", length - 1)   # lose the NUL
    del data[HEADER + 48 + length - 1]
    with pytest.raises(ReadError, match=r"event 0x43 at byte \d+: the event runs past the end "
                                        r"of its buffer"):
        decode(bytes(data))


def test_gzip_cut_short(tmp_path):
    packed = gzip.compress(log() * 1)
    path = tmp_path / "cut.mlpd.gz"
    path.write_bytes(packed[:len(packed) - 12])
    with pytest.raises(ReadError, match=r"cut.mlpd.gz: compressed byte \d+: the gzip stream is "
                                        r"cut short"):
        run(FileSource(path), MonoHandler())


def test_corrupt_gzip(tmp_path):
    packed = bytearray(gzip.compress(log()))
    packed[20:30] = b"\xff" * 10
    path = tmp_path / "bad.mlpd.gz"
    path.write_bytes(bytes(packed))
    with pytest.raises(ReadError, match=r"bad.mlpd.gz: .*(corrupt gzip data|gzip stream is cut "
                                        r"short|wrong magic)"):
        run(FileSource(path), MonoHandler())


def test_no_half_built_result(tmp_path):
    """A read that fails returns nothing: graphframe.read raises, it does not return a tree."""
    data = log()
    path = tmp_path / "half.mlpd"
    path.write_bytes(data[:-2])
    with pytest.raises(ReadError):
        graphframe.read(path)
    with pytest.raises(ReadError):
        graphframe.read_trace(path)
