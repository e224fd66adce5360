"""HPCToolkit current layout: damaged meta.db / profile.db raise ReadError (file, byte offset,
what was expected), never struct.error, IndexError or a hang."""

from __future__ import annotations

import struct

import pytest

from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from graphframe_readers.testing import sample_profile


@pytest.fixture
def db(tmp_path):
    return write_hpctoolkit_latest(sample_profile(), tmp_path / "db")


def _error(path, **options) -> str:
    with pytest.raises(ReadError) as info:
        read_hpctoolkit_latest(path, **options)
    return str(info.value)


def _patch(path, offset, data):
    raw = bytearray(path.read_bytes())
    raw[offset:offset + len(data)] = data
    path.write_bytes(bytes(raw))


def _ctx_base(meta):
    data = meta.read_bytes()
    size, ptr = struct.unpack_from("<QQ", data, 16 + 16 * 3)
    p_entries, = struct.unpack_from("<Q", data, ptr)
    _, p_children, *_ = struct.unpack_from("<QQIH", data, p_entries)
    return p_entries, p_children


@pytest.mark.parametrize("name", ["meta.db", "profile.db"])
def test_truncated_files(db, name):
    path = db / name
    size = path.stat().st_size
    path.write_bytes(path.read_bytes()[: size // 2])
    assert _error(db) == (f"{path}: byte {size // 2 - 8}: the file does not end with its footer "
                          f"(truncated?) (expected {b'_meta.db' if name == 'meta.db' else b'_prof.db'!r})")


def test_cut_inside_the_header(db):
    path = db / "meta.db"
    path.write_bytes(path.read_bytes()[:12])
    assert _error(db) == (f"{path}: byte 0: the file header (16 bytes) lies outside the file "
                          f"(12 bytes) (expected the file header inside the file)")


def test_bad_magic_format_and_version(db):
    meta, prof = db / "meta.db", db / "profile.db"
    good = meta.read_bytes()
    _patch(meta, 0, b"NOTTOOLKIT")
    assert _error(db) == f"{meta}: byte 0: bad magic b'NOTTOOLKIT' (expected b'HPCTOOLKIT')"
    meta.write_bytes(prof.read_bytes())
    assert _error(db) == f"{meta}: byte 10: this is a b'prof' file (expected format b'meta')"
    meta.write_bytes(good)
    _patch(meta, 14, bytes([3]))
    assert _error(db) == f"{meta}: byte 14: unsupported major version 3 (expected version 4.x)"


def test_missing_profile_db(db):
    (db / "profile.db").unlink()
    assert _error(db) == (f"{db}: the directory has no profile.db (expected an HPCToolkit "
                          f"database (meta.db + profile.db))")


def test_section_beyond_the_file(db):
    meta = db / "meta.db"
    _patch(meta, 16 + 16 * 3, struct.pack("<QQ", 10**9, 200))
    assert _error(db) == (f"{meta}: byte 64: section 3 (1000000000 bytes at byte 200) runs past "
                          f"the end of the file ({meta.stat().st_size} bytes) "
                          f"(expected sections inside the file)")


def test_child_pointer_loop_is_refused(db):
    meta = db / "meta.db"
    _, first = _ctx_base(meta)
    # make the first context's children array its own sibling array: a loop
    size = struct.unpack_from("<Q", meta.read_bytes(), first)[0]
    _patch(meta, first + 8, struct.pack("<Q", first))
    message = _error(db)
    assert message.startswith(f"{meta}: byte ")
    assert message.endswith("the context tree has more records than its section can hold "
                            "(child pointers loop) (expected each context listed once)")
    assert size > 0


def test_unknown_lexical_type_and_flags(db):
    meta = db / "meta.db"
    good = meta.read_bytes()
    _, first = _ctx_base(meta)
    _patch(meta, first + 22, bytes([9]))
    assert _error(db) == (f"{meta}: byte {first + 22}: unknown lexical type 9 (expected 0 "
                          f"(function), 1 (loop), 2 (line) or 3 (instruction))")
    meta.write_bytes(good)
    _patch(meta, first + 23, bytes([0]))  # no flex words although the flags announce three
    assert _error(db) == (f"{meta}: byte {first + 32}: flags 0x3 announce 3 flex words but there "
                          f"are 0 (expected flex words matching the flags)")


def test_profile_values_outside_the_file(db):
    prof = db / "profile.db"
    data = prof.read_bytes()
    p_profiles, = struct.unpack_from("<Q", data, struct.unpack_from("<QQ", data, 16)[1])
    _patch(prof, p_profiles + 8, struct.pack("<Q", 10**9))
    n_values = struct.unpack_from("<Q", data, p_profiles)[0]
    assert _error(db) == (f"{prof}: byte 1000000000: the values of profile 0 ({n_values} x 10 "
                          f"bytes) lies outside the file ({len(data)} bytes) (expected the values "
                          f"of profile 0 inside the file)")


def test_context_index_out_of_order(db):
    prof = db / "profile.db"
    data = prof.read_bytes()
    p_profiles, = struct.unpack_from("<Q", data, struct.unpack_from("<QQ", data, 16)[1])
    p_ctx, = struct.unpack_from("<Q", data, p_profiles + 24)
    _patch(prof, p_ctx + 4, struct.pack("<Q", 10**6))
    assert _error(db) == (f"{prof}: byte {p_ctx}: profile 0: context index start positions are "
                          f"not increasing within 0..31 (expected sorted start indices into the "
                          f"values)")


def test_duplicate_context_id(db):
    meta = db / "meta.db"
    _, first = _ctx_base(meta)
    ctx = struct.unpack_from("<I", meta.read_bytes(), first + 16)[0]
    _patch(meta, first + 56 + 16, struct.pack("<I", ctx))  # the next record (56 bytes each)
    assert _error(db) == (f"{meta}: context tree section: context id {ctx} appears twice in the "
                          f"context tree (expected unique context ids)")


def test_random_corruption_only_raises_read_error(tmp_path):
    """Flip random bytes of every file of both layouts: a read succeeds or raises ReadError."""
    import random
    import shutil

    from graphframe_readers.testing import write_hpctoolkit
    from graphframe_readers.hpctoolkit import read_hpctoolkit

    sources = [(write_hpctoolkit_latest(sample_profile(), tmp_path / "v4"), read_hpctoolkit_latest),
               (write_hpctoolkit(sample_profile(), tmp_path / "old"), read_hpctoolkit),
               (write_hpctoolkit(sample_profile(), tmp_path / "mdb", packed=True), read_hpctoolkit)]
    rng = random.Random(7)
    for trial in range(240):
        source, reader = sources[trial % 3]
        work = tmp_path / f"w{trial}"
        shutil.copytree(source, work)
        victim = rng.choice(sorted(work.iterdir()))
        data = bytearray(victim.read_bytes())
        for _ in range(rng.choice([1, 2, 4, 8])):
            data[rng.randrange(len(data))] = rng.randrange(256)
        victim.write_bytes(bytes(data))
        try:
            reader(work)
        except ReadError:
            pass
        shutil.rmtree(work)
