"""The machinery of check_decoder: isolation limits, damage helpers, and that the checks catch
a decoder that misbehaves."""

from __future__ import annotations

import gzip
import os
import time

import pytest

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from graphframe_readers.testing import corrupt
from graphframe_readers.testing.checks import Check, find_check, pairs
from graphframe_readers.testing.decoders import DECODER_CHECKS, DecoderSubject, check_decoder
from graphframe_readers.testing.isolation import run_isolated
from graphframe_readers.registry import unregister
from graphframe_readers.traces import registry


def _sleep():
    time.sleep(30)


def _allocate():
    return len(bytearray(3 << 30))


def _fail():
    raise ReadError("f.bin", "bad", position="byte 3", expected="good")


def test_isolation_outcomes():
    out = run_isolated(_sleep, time_limit=1)
    assert out.status == "timeout" and out.seconds < 5
    out = run_isolated(_allocate, memory_limit=256 << 20)
    assert out.status == "memory"
    assert run_isolated(os.abort).status == "crash"
    out = run_isolated(_fail)
    assert (out.status, out.is_read_error, out.source, out.position) == (
        "error", True, "f.bin", "byte 3")
    out = run_isolated(dict.__getitem__, {}, "k")
    assert (out.status, out.is_read_error, out.error_type) == ("error", False, "KeyError")


def test_damage_helpers_are_deterministic():
    assert corrupt.cut_points(1000, 6) == [1, 200, 400, 599, 799, 999]
    assert corrupt.flip_positions(1000, 4, 34) == corrupt.flip_positions(1000, 4, 34)
    assert corrupt.text_positions(b"  ab  cd ", 2) == [2, 7]
    bomb = corrupt.gzip_bomb(3 << 20, b"ab\n")
    assert len(bomb) < 20_000 and gzip.decompress(bomb) == (b"ab\n" * (1 << 20))[:3 << 20]


class _Fragile(rt.Decoder):
    """Lines "time rank name"; an IndexError on a short line (a foreign exception)."""

    format_name = "toy-fragile"

    @classmethod
    def sniff(cls, path, head):
        return head.startswith(b"#fragile")

    def decode(self, source, handler):
        strings = rt.StringTable()
        rows = [line.split() for line in b"".join(source.blocks()).decode().splitlines()[1:]]
        handler.on_batch(rt.EventBatch.build(
            strings, kind=[rt.Kind.INSTANT] * len(rows), time=[int(r[0]) for r in rows],
            rank=[int(r[1]) for r in rows], name=strings.intern_many(r[2] for r in rows),
            source=source.name))


@pytest.fixture
def fragile(tmp_path):
    registry.register_format(_Fragile)
    path = tmp_path / "data" / "t.toy"
    path.parent.mkdir()
    path.write_bytes(b"#fragile\n" + b"".join(b"%d 0 step%d\n" % (i, i) for i in range(50)))
    yield DecoderSubject("toy-fragile", str(path), text=("*.toy",))
    unregister("toy-fragile")


def test_checks_pass_what_the_toy_decoder_does_well(fragile, tmp_path):
    cases = check_decoder(fragile, tmp_path, checks=["sniff", "reads", "deterministic",
                                                     "files_closed"])
    assert [c.name for c in cases] == ["sniff", "reads", "deterministic", "files_closed"]


def test_checks_catch_foreign_exceptions_and_silent_reads(fragile, tmp_path):
    with pytest.raises(AssertionError) as err:
        check_decoder(fragile, tmp_path, checks=["truncate", "invalid_utf8"])
    text = str(err.value)
    assert "check 'truncate' failed" in text and "a foreign exception IndexError" in text
    assert "check 'invalid_utf8' failed" in text and "UnicodeDecodeError" in text


def test_named_checks_and_pairs():
    assert [c.name for c in DECODER_CHECKS][:4] == ["sniff", "reads", "deterministic",
                                                    "files_closed"]
    assert find_check(DECODER_CHECKS, "gzip_bomb").description.startswith("gzip")
    with pytest.raises(KeyError, match="no check 'nope'"):
        find_check(DECODER_CHECKS, "nope")
    subject = DecoderSubject("chrome", "x.json", skip=("flip",))
    names = [c.name for _, c in pairs([subject], DECODER_CHECKS)]
    assert "flip" not in names and "gzip_bomb" not in names and "truncate" in names
    assert isinstance(DECODER_CHECKS[0], Check)
