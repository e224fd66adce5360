"""HPCToolkit readers: numbers too large for their field (counts, offsets, ids, lines, ranks)
raise ReadError naming the file, the position and what was expected: never OverflowError, a
hang or a huge allocation."""

from __future__ import annotations

import shutil
import struct
import time

import numpy as np
import pytest

from graphframe_readers.testing import write_example_database, write_hpctoolkit
from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit
from graphframe_readers.hpctoolkit import read_hpctoolkit_latest
from graphframe_readers.testing import sample_profile

HUGE = "99999999999999999999999"  # needs 77 bits


def _error(reader, path, **options) -> str:
    with pytest.raises(ReadError) as info:
        reader(path, **options)
    return str(info.value)


@pytest.fixture
def old_db(tmp_path):
    return write_example_database(tmp_path / "db")


def _edit_xml(db, old: str, new: str):
    xml = db / "experiment.xml"
    text = xml.read_text()
    assert old in text
    xml.write_text(text.replace(old, new, 1))
    return xml


@pytest.mark.parametrize("attribute", ['l="10"', 'l="30"', 'l="16"'])
def test_xml_line_too_large(old_db, attribute):
    xml = _edit_xml(old_db, attribute, f'l="{HUGE}"')
    line = next(k for k, text in enumerate(xml.read_text().splitlines(), 1) if HUGE in text)
    assert _error(read_hpctoolkit, old_db) == (
        f"{xml}: line {line}: line '{HUGE}' is out of range (expected an integer that fits in "
        f"64 bits)")


def test_xml_call_site_line_too_large(old_db):
    # the <C> element's line only prefixes the callee's name ("12:foo")
    xml = _edit_xml(old_db, 'l="12"', f'l="{HUGE}"')
    assert _error(read_hpctoolkit, old_db) == (
        f"{xml}: line 17: call-site line '{HUGE}' is out of range (expected an integer that "
        f"fits in 64 bits)")


@pytest.mark.parametrize("node", ['<PF i="1"', '<S i="6"', '<L i="5"'])
def test_xml_node_id_too_large(old_db, node):
    xml = _edit_xml(old_db, node, node.split('"')[0] + f'"{HUGE}"')
    message = _error(read_hpctoolkit, old_db)
    tag = node[1:].split()[0]
    assert message.startswith(f"{xml}: line ")
    assert message.endswith(f"<{tag}> has an id out of range i='{HUGE}' (expected an integer "
                            f"that fits in 64 bits)")


def test_xml_node_id_beyond_the_metric_files(old_db):
    xml = _edit_xml(old_db, '<S i="6"', f'<S i="{2**62}"')
    assert _error(read_hpctoolkit, old_db) == (
        f"{xml}: line 19: node i={2**62} has no row in the metric files, which hold nodes 1..6 "
        f"(expected node ids between 1 and 6)")


def test_xml_metric_db_ids_too_large(old_db):
    xml = _edit_xml(old_db, 'db-id="1"', f'db-id="{HUGE}"')
    assert _error(read_hpctoolkit, old_db) == (
        f"{xml}: MetricDBTable: the MetricDB db-id values [0, {HUGE}] do not number the file's 2 "
        f"metric columns (expected db-id values 0..1, each once)")


def test_summary_metric_id_and_value_too_large(tmp_path):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db")
    xml = db / "experiment.xml"
    text = xml.read_text()
    statement = '<S i="3" s="3" l="6">'
    xml.write_text(text.replace(statement + '<M n="2"', statement + f'<M n="{HUGE}"', 1))
    assert _error(read_hpctoolkit, db, summary_only=True) == (
        f"{xml}: SecCallPathProfileData: an <M> element has a metric id out of range "
        f"(expected metric ids that fit in 64 bits)")
    # a value beyond float64 is infinite, as float() reads it
    xml.write_text(text.replace('<S i="3" s="3" l="6"><M n="2" v="672"',
                                '<S i="3" s="3" l="6"><M n="2" v="1e999"', 1))
    raw = read_hpctoolkit(db, summary_only=True)
    assert np.isinf(raw.metrics["time (inc)"]).sum() == 1


def test_metric_db_file_name_with_a_huge_rank(old_db):
    first = sorted(old_db.glob("*.metric-db"))[1]
    renamed = old_db / first.name.replace("000001", HUGE)
    first.rename(renamed)
    assert _error(read_hpctoolkit, old_db) == (
        f"{renamed}: file name: rank {HUGE} or thread 000 in the file name is out of range "
        f"(expected a rank and thread that fit in 64 bits)")


def test_metric_db_file_name_with_a_large_rank_is_a_gap_not_a_loop(old_db):
    # rank 2**40 fits, but ranks 1..2**40-1 are missing: reported at once (no loop over them)
    first = sorted(old_db.glob("*.metric-db"))[1]
    first.rename(old_db / first.name.replace("000001", str(2**40)))
    start = time.perf_counter()
    assert _error(read_hpctoolkit, old_db) == (
        f"{old_db}: directory listing: no metric file for rank 1 (the other files cover ranks "
        f"0..{2**40} and threads [0]) (expected one metric file (or .mdb profile) per rank and "
        f"thread)")
    # a hang guard, not a speed check: a loop over the 2**40 missing ranks never ends
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize("field", ["nodes", "metrics"])
def test_metric_db_header_counts_at_int32_max(old_db, field):
    path = sorted(old_db.glob("*.metric-db"))[0]
    data = path.read_bytes()
    at = 24 if field == "nodes" else 28
    path.write_bytes(data[:at] + np.array([2**31 - 1], ">i4").tobytes() + data[at + 4:])
    n, m = (2**31 - 1, 2) if field == "nodes" else (6, 2**31 - 1)
    assert _error(read_hpctoolkit, old_db) == (
        f"{path}: byte {len(data)}: the values end at byte {32 + 8 * n * m} but the file ends at "
        f"byte {len(data)} (truncated?) (expected {n} x {m} float64 values after the header)")


@pytest.mark.parametrize("entry, value", [(0, ("rank", 2**31 - 1)), (1, ("offset", 2**63 - 1)),
                                          (2, ("offset", -2**63)), (0, ("thread", -1))])
def test_mdb_profile_table_extremes(tmp_path, entry, value):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db", packed=True)
    mdb = db / "experiment-1.mdb"
    data = bytearray(mdb.read_bytes())
    field, number = value
    at = 8 + 16 * entry + {"rank": 0, "thread": 4, "offset": 8}[field]
    data[at:at + (8 if field == "offset" else 4)] = np.array(
        [number], ">i8" if field == "offset" else ">i4").tobytes()
    mdb.write_bytes(bytes(data))
    message = _error(read_hpctoolkit, db)
    assert message.startswith(f"{db}: directory listing: no metric file for rank" if field == "rank"
                              else f"{mdb}: profile table entry {entry} (byte {8 + 16 * entry}): ")


def test_mdb_profile_count_at_int32_max(tmp_path):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db", packed=True)
    mdb = db / "experiment-1.mdb"
    data = mdb.read_bytes()
    mdb.write_bytes(data[:4] + np.array([2**31 - 1], ">i4").tobytes() + data[8:])
    assert _error(read_hpctoolkit, db) == (
        f"{mdb}: byte 4: the header announces {2**31 - 1} profiles, more than the file's "
        f"{len(data)} bytes can hold (expected a profile count that fits the file)")


# ------------------------------------------------------------ meta.db / profile.db
@pytest.mark.parametrize("name", ["meta.db", "profile.db"])
def test_every_u64_field_at_its_maximum(tmp_path, name):
    """Overwrite each 8-byte word (counts, sizes, pointers, ids) with 2**64-1 and 2**63-1 in
    turn: every read succeeds or raises ReadError, each within a second."""
    source = write_hpctoolkit_latest(sample_profile(threads=(0,)), tmp_path / "src")
    original = (source / name).read_bytes()
    work = tmp_path / "work"
    shutil.copytree(source, work)
    target = work / name
    slowest = 0.0
    for at in range(16, len(original) - 8, 8):
        for value in (2**64 - 1, 2**63 - 1):
            target.write_bytes(original[:at] + struct.pack("<Q", value) + original[at + 8:])
            start = time.perf_counter()
            try:
                read_hpctoolkit_latest(work, parallel_profiles_mode=True)
            except ReadError:
                pass
            slowest = max(slowest, time.perf_counter() - start)
    # a hang guard, not a speed check: a loop or allocation sized by a 2**64 field never ends
    assert slowest < 30.0


@pytest.mark.parametrize("name", ["meta.db", "profile.db"])
def test_every_u32_and_u16_field_at_its_maximum(tmp_path, name):
    source = write_hpctoolkit_latest(sample_profile(threads=(0,)), tmp_path / "src")
    original = (source / name).read_bytes()
    work = tmp_path / "work"
    shutil.copytree(source, work)
    target = work / name
    for at in range(16, len(original) - 8, 2):  # u32 at 4-byte, u16 at the other 2-byte offsets
        value = b"\xff\xff\xff\xff" if at % 4 == 0 else b"\xff\xff"
        target.write_bytes(original[:at] + value + original[at + len(value):])
        try:
            read_hpctoolkit_latest(work, parallel_profiles_mode=True)
        except ReadError:
            pass
