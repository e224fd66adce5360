"""JSON loading shared by the JSON formats (readers/common/jsonfile.py)."""

import io
import json

import pytest

from graphframe_readers import ReadError
from graphframe_readers.common.jsonfile import as_document, load_json, loads_json


def test_json_loader_survives_deep_nesting_and_reports_positions(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    doc = loads_json(deep)
    depth = 0
    while doc:
        doc, depth = doc[0], depth + 1
    assert depth == 99_999
    nested = loads_json('{"a": [1, 2.5, "x\\n", true, null, {"b": -1e3}]}' + " ")
    assert nested == {"a": [1, 2.5, "x\n", True, None, {"b": -1000.0}]}
    with pytest.raises(ReadError, match=r"line 2, column 3"):
        loads_json('[1,\n  x]', "t.json")
    with pytest.raises(ReadError, match="line 1"):
        loads_json("[" * 5000 + "1,", "deep-truncated.json")
    p = tmp_path / "bin.json"
    p.write_bytes(b"\xff\xfe[")
    with pytest.raises(ReadError, match="not UTF-8"):
        load_json(p)


def test_iterative_decoder_agrees_with_json_module():
    inner = {"k": [{"x": [1, 2, {"y": "z"}]}, [], {}, "s\u00e9", 3.25, False, None, -1e3]}
    text = json.dumps(inner)
    doc = loads_json("[" * 5000 + text + "]" * 5000)  # too deep for json: the iterative path
    for _ in range(5000):
        (doc,) = doc
    assert doc == json.loads(text)


def test_streams_and_text_are_loaded_like_files(tmp_path):
    p = tmp_path / "doc.json"
    p.write_bytes(b'\xef\xbb\xbf{"a": [1]}')
    assert load_json(p) == load_json(io.BytesIO(p.read_bytes())) == {"a": [1]}
    assert load_json(io.StringIO('{"a": [1]}')) == {"a": [1]}
    assert as_document(b'{"a": [1]}') == as_document('{"a": [1]}') == {"a": [1]}
    assert as_document({"a": [1]}) == {"a": [1]}
    with pytest.raises(ReadError, match=r"^<stream>: line 1, column 2: invalid JSON"):
        load_json(io.StringIO("[x"))
