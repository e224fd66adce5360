"""The registry: formats, sniffing, dispatch and its errors (readers/registry.py).

The core tests live in tests/readers/core/, not in tests/readers/ itself: pytest puts a
test file's folder on sys.path, and tests/readers/ holds folders named like importable
packages (hatchet, pyinstrument), which would then shadow them as namespace packages.
"""

import json

import pytest

import readers
from readers import ReadError, UnknownFormatError


def test_registry_lists_formats_and_sniffs(tmp_path):
    assert readers.formats()[:2] == ["literal", "hatchet-json"]
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"frame": {"name": "a"}, "metrics": {}}]))
    assert readers.sniff(p) == "literal"
    q = tmp_path / "y.json"
    q.write_text(json.dumps({"graph": [], "dataframe": [], "dataframe_indices": ["node"]}))
    assert readers.sniff(q) == "hatchet-json"


def test_unknown_input_lists_known_formats(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("hello")
    with pytest.raises(UnknownFormatError) as info:
        readers.read(p)
    assert "literal" in str(info.value) and "hatchet-json" in str(info.value)
    assert str(p) in str(info.value)
    with pytest.raises(UnknownFormatError, match="unknown format 'nope'"):
        readers.read(p, format="nope")


def test_missing_path_is_a_read_error(tmp_path):
    with pytest.raises(ReadError, match="no such file"):
        readers.read(tmp_path / "absent.json")
    with pytest.raises(ReadError, match="no such file"):
        readers.read(tmp_path / "absent.json", format="literal")
    with pytest.raises(ReadError, match="empty list"):
        readers.read([])


def test_an_unknown_format_name_is_reported_against_the_file(tmp_path):
    p = tmp_path / "prof.json"
    p.write_text("[]")
    with pytest.raises(UnknownFormatError) as info:
        readers.read(p, format="nope")
    assert info.value.source == str(p)
    assert str(info.value).startswith(f"{p}: unknown format 'nope' (expected one of the formats: ")
