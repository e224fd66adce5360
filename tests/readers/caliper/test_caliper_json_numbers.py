"""Caliper json-split: numbers in the data rows are read exactly as JSON spells them.

The fast path converts the rows with a C CSV parser (pyarrow's on pandas 2, pandas' own
on pandas 3), and C parsers read more than JSON's numbers: ``+1``, ``.5``, ``01`` and,
once pyarrow's path has deleted the whitespace, ``1 5`` as 15. The files here are built
byte by byte; each is read by the fast path and by the general decoder alone, which
must agree: the same values, or the same ReadError naming the file and the position.
Both C parsers are exercised on either pandas (``engine``).
"""

import json
from contextlib import contextmanager
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import graphframe_readers
from graphframe_readers import ReadError
from graphframe_readers.caliper.jsonsplit import fast, reader
from graphframe_readers.caliper.jsonsplit.grammar import is_json_rows
from graphframe_readers.caliper.jsonsplit.reader import decode_caliper_json

JSON_SPACE = " \t\r\n"
PREFIX = '{"data": [[0, 0, 1.5], [1, 0, '  # the cell under test starts at column 31
TAIL = (', "columns": ["path", "mpi.rank", "time"], "column_metadata": [{"is_value": false}, '
        '{"is_value": true}, {"is_value": true}], "nodes": [{"label": "main", "column": "path"}, '
        '{"label": "foo", "column": "path", "parent": 0}]}')
EXPECTED = "(expected a complete, well-formed JSON document)"


@pytest.fixture(params=["pyarrow", "pandas"])
def engine(request, monkeypatch):
    """The fast path's CSV parser: pyarrow's (pandas 2's default) or pandas' (pandas 3's)."""
    monkeypatch.setattr(fast, "PANDAS_EXACT", request.param == "pandas")
    return request.param


#: the parsers that convert every number exactly as Python's float (``PANDAS_EXACT``
#: values): pandas 2's C parser can be a unit in the last place off, which is why
#: pandas 2 takes pyarrow's
EXACT_ENGINES = (False, True) if fast.PANDAS_EXACT else (False,)


def with_cell(cell: str) -> str:
    return PREFIX + cell + "]]" + TAIL


@contextmanager
def general_decoder_only():
    with mock.patch.object(reader, "decode_fast", lambda raw, progress_step=None: None):
        yield


def outcome(text: bytes, general: bool = False):
    """("values", metrics) or ("error", message) of reading ``text``; any other exception
    propagates and fails the test."""
    try:
        if general:
            with general_decoder_only():
                raw = decode_caliper_json([text], "prof.json")
        else:
            raw = decode_caliper_json([text], "prof.json")
    except ReadError as exc:
        return "error", str(exc)
    return "values", raw.metrics


def same_outcome(a, b) -> bool:
    return a[0] == b[0] and (a[1] == b[1] if a[0] == "error" else a[1].equals(b[1]))


# ------------------------------------------------------------- invalid cells
@pytest.mark.parametrize("cell, column, problem", [
    ("+1", 31, "Expecting value"),
    (".5", 31, "Expecting value"),
    ("-.5", 31, "Expecting value"),
    ("1 5", 33, "Expecting ',' delimiter"),
    ("1\t5", 33, "Expecting ',' delimiter"),
    ("1 .5", 33, "Expecting ',' delimiter"),
    ("- 1", 31, "Expecting value"),
    ("01", 32, "Expecting ',' delimiter"),
    ("-01", 33, "Expecting ',' delimiter"),
    ("00", 32, "Expecting ',' delimiter"),
    ("1.", 32, "Expecting ',' delimiter"),
    ("1.e5", 32, "Expecting ',' delimiter"),
    ("-", 31, "Expecting value"),
    ("1e", 32, "Expecting ',' delimiter"),
    ("1e+", 32, "Expecting ',' delimiter"),
    ("--1", 31, "Expecting value"),
    ("1.2.3", 34, "Expecting ',' delimiter"),
    ("1e5e5", 34, "Expecting ',' delimiter"),
    ("nul", 31, "Expecting value"),
    ("nulll", 35, "Expecting ',' delimiter"),
    ("1\x0c", 32, "Expecting ',' delimiter"),      # form feed: not JSON whitespace
    ("\x0b1", 31, "Expecting value"),              # vertical tab
    ("1\u00a0", 32, "Expecting ',' delimiter"),    # no-break space
    ("\u0661", 31, "Expecting value"),             # ARABIC-INDIC DIGIT ONE
])
def test_a_number_json_does_not_allow_is_a_located_error(tmp_path, engine, cell, column, problem):
    path = tmp_path / "prof.json"
    path.write_text(with_cell(cell), encoding="utf-8")
    assert fast.decode_fast(path.read_bytes()) is None
    with pytest.raises(ReadError) as info:
        graphframe_readers.read(path)
    assert str(info.value) == f"{path}: line 1, column {column}: invalid JSON: {problem} {EXPECTED}"


# --------------------------------------------------------------- valid cells
@pytest.mark.parametrize("cell, value", [
    ("0", 0.0), ("-0", 0.0), ("-0.0", 0.0), ("10", 10.0), ("0.5", 0.5), ("-2.25", -2.25),
    ("1e5", 1e5), ("1E5", 1e5), ("1e+5", 1e5), ("1E-5", 1e-5), ("1.5e-3", 0.0015),
    ("0e0", 0.0), ("1e05", 1e5), ("0.000235", 0.000235),
    ("123456789012345678901", 1.2345678901234568e20),
    ("null", np.nan),
])
def test_every_spelling_of_a_json_number_takes_the_fast_path(tmp_path, engine, cell, value):
    text = with_cell(cell).encode()
    doc = fast.decode_fast(text)
    assert doc is not None
    np.testing.assert_array_equal(doc.cells, [[0, 0, 1.5], [1, 0, value]])
    path = tmp_path / "prof.json"
    path.write_bytes(text)
    # a null is no value: 0 in the frame (Hatchet fills missing metrics with 0)
    expected = [1.5, 0.0 if np.isnan(value) else value]
    assert graphframe_readers.read(path).metrics["time"].tolist() == expected


# -------------------------------------------------------- whitespace layouts
LAYOUTS = {
    "compact": "[[0,0,1.5],[1,0,null],[1,1,2e-3]]",
    "spaces": "[[0, 0, 1.5], [1, 0, null], [1, 1, 2e-3]]",
    "before-commas": "[[0 , 0 , 1.5] , [1 ,0 ,null ] ,[1,1,2e-3 ]]",
    "inside-brackets": "[ [ 0, 0, 1.5 ], [ 1, 0, null ], [ 1, 1, 2e-3 ] ]",
    "tabs": "[[0,\t0,\t1.5],\t[1,\t0,\tnull]\t,[1\t,1,2e-3]]",
    "crlf": "[\r\n  [0, 0, 1.5],\r\n  [1, 0, null],\r\n  [1, 1, 2e-3]\r\n]",
    "newlines-in-rows": "[[0,\n0,\n1.5],\n[1\n,0,\nnull],[\n1,1,2e-3\n]]",
    "cr-in-rows": "[[0,\r0,1.5],[1,0\r,null],[1,1,\r2e-3]]",
}
#: the layouts pandas 3's reader parses itself (it skips the spaces before a value
#: only; the others go to the general decoder, correct but slower)
PANDAS_READS = {"compact", "spaces", "crlf"}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_json_whitespace_anywhere_between_values_reads_the_same_values(tmp_path, engine, layout):
    text = ('{"data": ' + LAYOUTS[layout] + TAIL).encode()
    doc = fast.decode_fast(text)
    if engine == "pyarrow" or layout in PANDAS_READS:
        assert doc is not None
    if doc is not None:
        np.testing.assert_array_equal(doc.cells, [[0, 0, 1.5], [1, 0, np.nan], [1, 1, 0.002]])
    path = tmp_path / "prof.json"
    path.write_bytes(text)
    assert graphframe_readers.read(path).metrics["time"].tolist() == [1.5, 0.0, 0.0, 0.002]
    assert same_outcome(outcome(text), outcome(text, general=True))


# ------------------------------------------ the grammar, against the json module
def json_accepts_rows(block: bytes) -> bool:
    """What the json module says of a block of rows (the text between the data list's
    brackets, from the first row's ``[`` to the last row's ``]``)."""
    if block[:1] != b"[" or block[-1:] != b"]":
        return False
    try:
        rows = json.loads(b"[" + block + b"]")
    except ValueError:
        return False
    return all(type(row) is list and row and
               all(cell is None or type(cell) in (int, float) for cell in row) for row in rows)


SHORT = [a + b + c for a in ["", *"01.eE+- "] for b in ["", *"01.eE+- "] for c in "01.eE+- "]


def test_the_grammar_accepts_exactly_the_short_cells_json_accepts():
    for cell in sorted(set(SHORT)) + ["null", "nul", "-null", "null1", "1null"]:
        for block in (f"[{cell}]", f"[1,{cell}]", f"[{cell}],[2]"):
            assert is_json_rows(block.encode()) == json_accepts_rows(block.encode()), block


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.eE+-,[] \t\r\nnul\x0cx", max_size=24).map(str.encode))
@example(b"[1 5]")
@example(b"[1],,[2]")
@example(b"[],[1]")
def test_the_grammar_accepts_exactly_the_blocks_json_accepts(block):
    assert is_json_rows(block) == json_accepts_rows(block)


# ----------------------------------------------------- random tables and layouts
DIGITS = "0123456789"
numbers = st.builds(
    lambda sign, integer, fraction, exponent: sign + integer + fraction + exponent,
    st.sampled_from(["", "-"]),
    st.one_of(st.just("0"), st.builds(str.__add__, st.sampled_from("123456789"),
                                      st.text(DIGITS, max_size=12))),
    st.one_of(st.just(""), st.text(DIGITS, min_size=1, max_size=17).map("." .__add__)),
    st.one_of(st.just(""), st.builds(lambda e, s, d: e + s + d, st.sampled_from("eE"),
                                     st.sampled_from(["", "+", "-"]),
                                     st.text(DIGITS, min_size=1, max_size=2))))
cells = st.one_of(numbers, st.just("null"))
spaces = st.text(JSON_SPACE, max_size=3)


@st.composite
def tables(draw):
    """(rows of cell texts, metric count): column 0 is the path (node 0 or 1)."""
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.tuples(st.sampled_from(["0", "1"]),
                                   st.lists(cells, min_size=width, max_size=width)),
                         min_size=1, max_size=8))
    return [[path, *metrics] for path, metrics in rows], width


def document(rows, width, space=lambda: " ") -> bytes:
    """A json-split document with ``space()`` wherever JSON allows whitespace in the rows."""
    parts = ["[", space()]
    for i, row in enumerate(rows):
        if i:
            parts += [",", space()]
        parts += ["[", space()]
        for j, cell in enumerate(row):
            if j:
                parts += [",", space()]
            parts += [cell, space()]
        parts += ["]", space()]
    parts.append("]")
    names = [f"m{j}" for j in range(width)]
    tail = {"columns": ["path", *names],
            "column_metadata": [{"is_value": False}] + [{"is_value": True}] * width,
            "nodes": [{"label": "main", "column": "path"},
                      {"label": "foo", "column": "path", "parent": 0}]}
    return ('{"data": ' + "".join(parts) + ", " + json.dumps(tail)[1:]).encode()


def json_cells(text: bytes) -> np.ndarray:
    return np.array([[np.nan if c is None else float(c) for c in row]
                     for row in json.loads(text)["data"]], dtype=np.float64)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_random_tables_with_random_whitespace_read_as_json_reads_them(table, data):
    rows, width = table
    text = document(rows, width, lambda: data.draw(spaces))
    data_list = text[len(b'{"data": '):text.index(b', "columns"')]
    assert is_json_rows(data_list[1:-1].strip(JSON_SPACE.encode()))
    expected = json_cells(text)
    for exact in EXACT_ENGINES:  # pyarrow's path, then pandas' (pandas 3)
        with mock.patch.object(fast, "PANDAS_EXACT", exact):
            doc = fast.decode_fast(text)
        if not exact:
            assert doc is not None  # pyarrow's path reads any JSON whitespace
        if doc is not None:
            np.testing.assert_array_equal(doc.cells, expected)
    assert same_outcome(outcome(text), outcome(text, general=True))


BYTES = st.one_of(st.sampled_from(b"0123456789.eE+- \t\r\n,[]nulx\x0c\x00\"{"),
                  st.integers(0, 255))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_a_number_corrupted_by_one_byte_is_an_error_or_the_general_decoders_value(table, data):
    rows, width = table
    numbers_at = [(i, j) for i, row in enumerate(rows) for j, cell in enumerate(row)
                  if cell != "null"]
    i, j = data.draw(st.sampled_from(numbers_at))
    cell = rows[i][j].encode()
    at = data.draw(st.integers(0, len(cell)))
    byte = bytes([data.draw(BYTES)])
    how = data.draw(st.sampled_from(["replace", "insert", "delete"]))
    if how == "replace" and at < len(cell):
        cell = cell[:at] + byte + cell[at + 1:]
    elif how == "delete" and at < len(cell):
        cell = cell[:at] + cell[at + 1:]
    else:
        cell = cell[:at] + byte + cell[at:]
    marker = "\x01"
    rows = [list(row) for row in rows]
    rows[i][j] = marker
    text = document(rows, width).replace(marker.encode(), cell)
    for exact in EXACT_ENGINES:
        with mock.patch.object(fast, "PANDAS_EXACT", exact):
            doc = fast.decode_fast(text)
            got = outcome(text)
        if doc is not None:  # the fast path took it: JSON must read the same numbers
            np.testing.assert_array_equal(doc.cells, json_cells(text))
        assert same_outcome(got, outcome(text, general=True)), (cell, got)


# ------------------------------------------------- the document around the rows
D, C = '[[0, 1.5], [1, 2]]', '"columns": ["path", "t"], "column_metadata": [{}, {"is_value": true}]'
N = '[{"label": "main", "column": "path"}, {"label": "f", "column": "path", "parent": 0}]'
NAME = "Expecting property name enclosed in double quotes"


@pytest.mark.parametrize("text, column, problem", [
    ("\x0c{" + f'"data": {D}, {C}, "nodes": {N}' + "}", 1, "Expecting value"),
    ('{"data": [[0, 1.5],\x0b[1, 2]], ' + f'{C}, "nodes": {N}' + "}", 20, "Expecting value"),
    ('{"data": ' + f'{D},, {C}, "nodes": {N}' + "}", 29, NAME),
    ('{"data": ' + f'{D} {C}, "nodes": {N}' + "}", 29, "Expecting ',' delimiter"),
    ('{"data": ' + f'{D}, "nodes": {N} {C}' + "}", 124, "Expecting ',' delimiter"),
    ('{"data": ' + f'{D}, "nodes": {N},, {C}' + "}", 124, NAME),
    ('{"data": ' + f'{D}, {C},\x0c"nodes": {N}' + "}", 100, NAME),
], ids=["form-feed-first", "vertical-tab-between-rows", "two-commas-after-data",
        "no-comma-after-data", "no-comma-after-nodes", "two-commas-after-nodes",
        "form-feed-before-nodes"])
def test_the_fast_path_allows_no_more_than_json_around_the_rows(tmp_path, text, column, problem):
    path = tmp_path / "prof.json"
    path.write_text(text)
    assert fast.decode_fast(path.read_bytes()) is None
    with pytest.raises(ReadError) as info:
        graphframe_readers.read(path, format="caliper-json")
    assert str(info.value) == f"{path}: line 1, column {column}: invalid JSON: {problem} {EXPECTED}"


@pytest.mark.parametrize("rows", ["[ [ 0 , 0,0 ] ]", "[[0, 1.5, 2]]", "[[0]]"])
def test_rows_of_the_wrong_width_are_one_error_on_both_paths(rows):
    # found by the property below: "0.0" corrupted to "0,0" made a row of 3 cells for 2
    # columns, which the fast path and the general decoder described in different words
    text = ('{"data": ' + rows + ', "columns": ["path", "m0"], "column_metadata": '
            '[{"is_value": false}, {"is_value": true}], "nodes": [{"label": "main", '
            '"column": "path"}]}').encode()
    fast_outcome, general = outcome(text), outcome(text, general=True)
    assert fast_outcome == general
    assert general[0] == "error" and "the row does not have one cell per column: " in general[1]
