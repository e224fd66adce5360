"""HPCToolkit old layout: every bad input raises ReadError naming the file, the position and
what was expected, quickly and without large memory use."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

from graphframe_readers.testing.writers.hpctoolkit import SPEC_XML, write_example_database, write_hpctoolkit
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit import read_hpctoolkit
from graphframe_readers.testing import sample_profile


@pytest.fixture
def db(tmp_path):
    return write_example_database(tmp_path / "db")


def _error(path, **options) -> str:
    with pytest.raises(ReadError) as info:
        read_hpctoolkit(path, **options)
    return str(info.value)


def _first_db_file(db):
    return sorted(db.glob("*.metric-db"))[0]


def test_truncated_metric_db(db):
    path = _first_db_file(db)
    path.write_bytes(path.read_bytes()[:60])
    assert _error(db) == (f"{path}: byte 60: the values end at byte 128 but the file ends at "
                          f"byte 60 (truncated?) (expected 6 x 2 float64 values after the header)")


def test_metric_db_cut_inside_the_header(db):
    path = _first_db_file(db)
    path.write_bytes(path.read_bytes()[:20])
    assert _error(db) == (f"{path}: byte 0: the metric-db header is cut short (20 bytes) "
                          f"(expected a 32-byte header)")


def test_corrupted_magic_and_byte_order(db):
    path = _first_db_file(db)
    data = path.read_bytes()
    path.write_bytes(b"XXXXXXXX" + data[8:])
    assert _error(db) == (f"{path}: byte 0: bad magic b'XXXXXXXXmetricdb__' "
                          f"(expected b'HPCPROF-metricdb__')")
    path.write_bytes(data[:23] + b"x" + data[24:])
    assert _error(db) == (f"{path}: byte 23: unknown byte order flag b'x' "
                          f"(expected b (big-endian) or l (little-endian))")


def test_files_disagreeing_on_the_shape(db):
    second = sorted(db.glob("*.metric-db"))[1]
    data = second.read_bytes()
    second.write_bytes(data[:24] + np.array([5, 2], ">i4").tobytes() + data[32:])
    assert _error(db) == (f"{second}: byte 24: the header declares 5 nodes x 2 metrics, unlike "
                          f"the first file (6 x 2) (expected 6 nodes and 2 metrics)")


def test_missing_metric_files(db):
    for path in db.glob("*.metric-db"):
        path.unlink()
    assert _error(db) == (f"{db}: directory listing: experiment.xml's MetricDBTable declares 2 "
                          f"metrics stored in '*.metric-db' files, but the directory has no "
                          f"*.metric-db file and no experiment*.mdb file (expected the metric "
                          f"files written by hpcprof/hpcprof-mpi)")


def test_missing_metric_files_with_summary_values(tmp_path):
    # the writer puts hpcprof's <M> summary values into experiment.xml: still an error,
    # which names the option that reads them
    db = write_hpctoolkit(sample_profile(), tmp_path / "db")
    for path in db.glob("*.metric-db"):
        path.unlink()
    assert _error(db) == (f"{db}: directory listing: experiment.xml's MetricDBTable declares 2 "
                          f"metrics stored in '*.metric-db' files, but the directory has no "
                          f"*.metric-db file and no experiment*.mdb file (or read the per-node "
                          f"values summed over ranks that experiment.xml also holds: "
                          f"summary_only=True in Python, --option summary_only=true on the "
                          f"command line) (expected the metric files written by "
                          f"hpcprof/hpcprof-mpi)")
    raw = read_hpctoolkit(db, summary_only=True)
    assert raw.index_levels == () and raw.metadata["metric_files"] == \
        "summary values in experiment.xml"


def test_missing_packed_mdb(tmp_path):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db", packed=True)
    (db / "experiment-1.mdb").unlink()
    assert "the directory has no *.metric-db file and no experiment*.mdb file" in _error(db)


def test_one_missing_metric_file(tmp_path):
    db = write_hpctoolkit(sample_profile(ranks=(0, 1, 2)), tmp_path / "db")
    victim = sorted(db.glob("*-000001-001-*.metric-db"))[0]
    victim.unlink()
    assert _error(db) == (f"{db}: directory listing: no metric file for rank 1 thread 1 (the "
                          f"other files cover ranks 0..2 and threads [0, 1]) (expected one "
                          f"metric file (or .mdb profile) per rank and thread)")
    for path in db.glob("*-000001-*.metric-db"):
        path.unlink()
    assert _error(db) == (f"{db}: directory listing: no metric file for rank 1 (the other files "
                          f"cover ranks 0..2 and threads [0, 1]) (expected one metric file (or "
                          f".mdb profile) per rank and thread)")


def test_missing_last_rank_is_caught_by_the_recorded_totals(tmp_path):
    # no gap in the file names: experiment.xml's totals (<M> inside SecCallPathProfileData)
    # no longer match the files
    db = write_hpctoolkit(sample_profile(ranks=(0, 1, 2)), tmp_path / "db")
    for path in db.glob("*-000002-*.metric-db"):
        path.unlink()
    # own values (node + 1) * (1 + 10 rank + 100 thread) over 10 nodes: 55 * (sum of factors)
    assert _error(db) == (f"{db}: directory listing: the metric files add up to {55 * 224} for "
                          f"'CPUTIME (usec) (I)' but experiment.xml records a total of {55 * 366}: "
                          f"metric files are missing (those present cover ranks 0..1 and threads "
                          f"[0, 1]) or belong to another run (expected the metric files of every "
                          f"rank and thread hpcprof wrote (their values add up to the totals in "
                          f"experiment.xml))")
    # ... and a thread missing on every rank
    db = write_hpctoolkit(sample_profile(ranks=(0, 1)), tmp_path / "db2")
    for path in db.glob("*-001-*.metric-db"):
        path.unlink()
    assert f"the metric files add up to {55 * 12} for 'CPUTIME (usec) (I)' but experiment.xml " \
           f"records a total of {55 * 224}" in _error(db)
    # selecting ranks still checks every file
    assert f"records a total of {55 * 224}" in _error(db, ranks=[0])


def test_metric_count_mismatch(db):
    xml = db / "experiment.xml"
    text = xml.read_text()
    extra = '<MetricDB i="2" n="other (I)" t="inclusive"/>'
    xml.write_text(text.replace("</MetricDBTable>", extra + "</MetricDBTable>"))
    path = _first_db_file(db)
    assert _error(db) == (f"{path}: byte 28: the file holds 2 metrics but experiment.xml's "
                          f"MetricDBTable declares 3 (expected 3 metrics per node)")


def test_metric_column_ids_out_of_range(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('db-id="1"', 'db-id="7"'))
    assert _error(db) == (f"{xml}: MetricDBTable: the MetricDB db-id values [0, 7] do not number "
                          f"the file's 2 metric columns (expected db-id values 0..1, each once)")


def test_node_id_beyond_the_metric_rows(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('<S i="6"', '<S i="9"'))
    assert _error(db) == (f"{xml}: line 19: node i=9 has no row in the metric files, which "
                          f"hold nodes 1..6 (expected node ids between 1 and 6)")


def test_duplicate_node_id(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('<S i="6"', '<S i="4"'))
    assert _error(db) == f"{xml}: line 19: node id i=4 is used twice (expected unique node ids)"


def test_node_without_id(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('<S i="6" ', '<S '))
    assert _error(db) == (f"{xml}: line 19, column 32: <S> has no 'i' attribute "
                          f"(expected a node id i=... (the row in the metric-db files))")


def test_non_integer_line(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('l="16"', 'l="x16"'))
    assert _error(db) == f"{xml}: line 19: line 'x16' is not an integer (expected an integer line)"


def test_line_ranges_keep_their_start(db):
    xml = db / "experiment.xml"
    xml.write_text(xml.read_text().replace('l="16"', 'l="16-18"'))
    raw = read_hpctoolkit(db)
    assert "app.c:16" in raw.node_columns["name"].tolist()


def test_malformed_and_truncated_xml(db):
    xml = db / "experiment.xml"
    xml.write_text(SPEC_XML.replace("</L>", "</S>", 1))
    assert _error(db) == (f"{xml}: line 19, column 58: malformed XML: mismatched tag "
                          f"(expected well-formed XML)")
    xml.write_text(SPEC_XML[: len(SPEC_XML) // 2])
    assert _error(db) == (f"{xml}: line 10, column 20: malformed XML: unclosed token "
                          f"(expected well-formed XML)")


def test_xml_without_call_path_data(db):
    xml = db / "experiment.xml"
    xml.write_text("<HPCToolkitExperiment><Header n='x'/></HPCToolkitExperiment>")
    assert _error(db) == (f"{xml}: end of file: the file has no SecCallPathProfileData section "
                          f"(expected an HPCToolkit experiment.xml with a calling-context tree)")


BOMB = """<?xml version="1.0"?>
<!DOCTYPE HPCToolkitExperiment [
 <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
 <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
 <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
 <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
 <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
]>
<HPCToolkitExperiment version="2.0"><Header n="&g;"/></HPCToolkitExperiment>
"""


def test_entity_bomb_is_refused_quickly_and_small(db):
    xml = db / "experiment.xml"
    xml.write_text(BOMB)
    tracemalloc.start()
    start = time.perf_counter()
    message = _error(db)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert message == (f"{xml}: line 3, column 13: entity declaration <!ENTITY a> refused "
                       f"(entity expansion can exhaust memory) (expected no entity declarations)")
    # the memory peak proves the entities were never expanded; the time is a hang guard only
    assert peak < 5_000_000 and elapsed < 30


def test_external_dtd_and_external_entities_are_refused(db):
    xml = db / "experiment.xml"
    xml.write_text('<?xml version="1.0"?>\n<!DOCTYPE HPCToolkitExperiment SYSTEM '
                   '"http://example.invalid/x.dtd">\n<HPCToolkitExperiment/>')
    assert _error(db) == (f"{xml}: line 2, column 69: the DOCTYPE refers to an external DTD "
                          f"(http://example.invalid/x.dtd) (expected no external DTD (it is "
                          f"never fetched))")
    xml.write_text('<?xml version="1.0"?>\n<!DOCTYPE x [\n<!ENTITY secret SYSTEM '
                   '"file:///etc/passwd">\n]>\n<x>&secret;</x>')
    assert "entity declaration <!ENTITY secret> refused" in _error(db)


def test_internal_dtd_without_entities_is_accepted(db):
    xml = db / "experiment.xml"
    dtd = ('<!DOCTYPE HPCToolkitExperiment [\n<!ELEMENT HPCToolkitExperiment (Header)>\n'
           '<!ATTLIST PF i CDATA #IMPLIED>\n<!-- comment -->\n]>\n')
    xml.write_text(SPEC_XML.replace('<?xml version="1.0"?>\n', '<?xml version="1.0"?>\n' + dtd))
    assert read_hpctoolkit(db).num_nodes == 5


def test_bad_and_duplicate_file_names(db):
    path = _first_db_file(db)
    bad = db / "profile.metric-db"
    path.rename(bad)
    assert _error(db) == (f"{bad}: file name: cannot tell the rank and thread from the file name "
                          f"(expected <program>-<rank>-<thread>-<host>-<pid>-<n>.metric-db)")
    bad.unlink()
    second = _first_db_file(db)
    twin = db / second.name.replace("a8c00270", "b8c00270")
    twin.write_bytes(second.read_bytes())
    assert _error(db) == (f"{twin}: file name: rank 1 thread 0 appears twice (also in {second}) "
                          f"(expected one profile per rank and thread)")


def test_missing_directory_and_missing_xml(tmp_path):
    assert _error(tmp_path / "nope") == (f"{tmp_path / 'nope'}: no such directory "
                                         f"(expected an HPCToolkit database directory)")
    (tmp_path / "empty").mkdir()
    assert _error(tmp_path / "empty") == (f"{tmp_path / 'empty'}: the directory has no "
                                          f"experiment.xml (expected an HPCToolkit database "
                                          f"(experiment.xml + *.metric-db))")


def test_corrupted_packed_mdb(tmp_path):
    db = write_hpctoolkit(sample_profile(), tmp_path / "db", packed=True)
    mdb = db / "experiment-1.mdb"
    data = mdb.read_bytes()
    mdb.write_bytes(data[:8] + np.array([0, 0, 10**9], dtype=">i4").tobytes()[:8]
                    + np.array([10**9], ">i8").tobytes() + data[24:])
    assert _error(db) == (f"{mdb}: profile table entry 0 (byte 8): profile 0 starts at byte "
                          f"1000000000, outside the data area (expected an offset between 72 and "
                          f"{len(data) - 40})")
    for cut in (len(data) // 2, len(data) - 200, len(data) - 3):
        mdb.write_bytes(data[:cut])
        trailer = int.from_bytes(data[cut - 8:cut], "big")
        assert _error(db) == (f"{mdb}: byte {cut - 8}: the file ends with {trailer:#018x}, not "
                              f"the .mdb trailer (truncated?) (expected 0xffffffffdeadf00d)")
    # the last profile cut short, the trailer intact
    mdb.write_bytes(data[:-208] + data[-8:])
    assert _error(db) == (f"{mdb}: byte {len(data) - 208}: the values end at byte "
                          f"{len(data) - 8} but the profile ends at byte {len(data) - 208} "
                          f"(truncated?) (expected 13 x 2 float64 values after the header)")
    mdb.write_bytes(data[:4] + np.array([10**6], ">i4").tobytes() + data[8:])
    assert _error(db) == (f"{mdb}: byte 4: the header announces 1000000 profiles, more than the "
                          f"file's {len(data)} bytes can hold (expected a profile count that "
                          f"fits the file)")
    mdb.write_bytes(data[:8] + np.array([-3], ">i4").tobytes() + data[12:])
    assert _error(db) == (f"{mdb}: profile table entry 0 (byte 8): profile 0 has rank -3 thread 0 "
                          f"(expected a non-negative rank and thread)")
