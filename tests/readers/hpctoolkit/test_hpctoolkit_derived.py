"""Derived metrics of the current HPCToolkit layout: formulas of metrics/default.yaml, read with
PyYAML's safe_load and exposed (not evaluated) in metadata."""

from __future__ import annotations

import shutil

import pytest

from graphframe_readers.testing import write_hpctoolkit_latest
from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit.latest.derived import NOTE
from graphframe_readers.hpctoolkit.latest.yamlfile import load_yaml
from graphframe_readers.testing import sample_profile

DERIVED = "hpctoolkit/hpcviewer-derived-metrics-v4-database"


def test_yaml_document():
    text = """%YAML 1.2
---
# a comment
version: !!int 0
inputs: !!seq
  - &a
    metric: "GINS: SIMD_ACT"   # quoted: it holds ': '
    scope: execution
    formula: $$
  - &b {metric: B, scope: 'lex_aware', weight: 1.5e+3}
roots:
- name: R
  visible by default: false
  description: >
    two
    lines
  variants:
    "": {formula: {inclusive: [*a, /, *b]}}
    Mean:
      render: [number, percent]
"""
    doc = load_yaml(text, "m.yaml")
    a, b = doc["inputs"]
    assert a == {"metric": "GINS: SIMD_ACT", "scope": "execution", "formula": "$$"}
    assert b == {"metric": "B", "scope": "lex_aware", "weight": 1500.0}
    root = doc["roots"][0]
    assert root["visible by default"] is False and root["description"] == "two lines\n"
    assert root["variants"][""]["formula"]["inclusive"] == [a, "/", b]
    assert root["variants"][""]["formula"]["inclusive"][0] is a  # aliases share the object
    assert root["variants"]["Mean"] == {"render": ["number", "percent"]}
    assert doc["version"] == 0


def test_yaml_that_the_old_subset_reader_refused():
    """Issue 19 item 9: valid YAML (a block value on its own line, a flow sequence over
    lines, a literal block) read as YAML says."""
    text = "roots:\n  - name: R\n    children:\n      []\n    formula: [1,\n      2]\n" \
           "    description: |\n      a\n      b\n"
    assert load_yaml(text, "m.yaml") == {"roots": [{"name": "R", "children": [],
                                                    "formula": [1, 2],
                                                    "description": "a\nb\n"}]}


@pytest.mark.parametrize("text, problem", [
    ("a: *nowhere\n", "line 1, column 4: found undefined alias 'nowhere'"),
    ("a: [1, 2\n", "line 2, column 1: while parsing a flow sequence, expected ',' or ']', "
                   "but got '<stream end>'"),
    ("a: 1\n  b: 2\n", "line 2, column 4: mapping values are not allowed here"),
    ("a: 'open\n", "line 2, column 1: while scanning a quoted scalar, found unexpected end of "
                   "stream"),
    ("a: !!python/object:os.system x\n", "line 1, column 4: could not determine a constructor "
                                         "for the tag 'tag:yaml.org,2002:python/object:os.system'"),
])
def test_yaml_errors_name_the_line(text, problem):
    with pytest.raises(ReadError) as info:
        load_yaml(text, "m.yaml")
    assert str(info.value) == f"m.yaml: {problem} (expected well-formed YAML)"


def test_real_database_formulas(shared_data):
    gf = GraphFrame.from_hpctoolkit_latest(shared_data / DERIVED)
    derived = gf.metadata["derived_metrics"]
    assert gf.metadata["derived_metrics_note"] == NOTE
    assert sorted(derived) == [
        "GINS: LAT_THR", "GKER:BLKS", "GKER:BLK_SM (B)", "GKER:BLK_THR", "GKER:DYMEM (B)",
        "GKER:FGP_ACT", "GKER:FGP_MAX", "GKER:LMEM (B)", "GKER:OCC_THR", "GKER:STMEM (B)",
        "GKER:THR_REG", "GSAMP:UTIL"]
    assert derived["GKER:OCC_THR"] == {
        "description": "GPU kernel: theoretical occupancy (FGP_ACT / FGP_MAX)",
        "formulas": {
            "exclusive (custom)":
                "100 * (GKER:FGP_ACT_ACUMU[lex_aware] / GKER:FGP_MAX_ACUMU[lex_aware])",
            "exclusive (standard)":
                "100 * (GKER:FGP_ACT_ACUMU[function] / GKER:FGP_MAX_ACUMU[function])"}}
    # the inputs are metrics of the database: their execution-scope sums are columns
    for name in ("GKER:FGP_ACT_ACUMU (inc)", "GKER:FGP_MAX_ACUMU (inc)"):
        assert name in gf.dataframe.columns
    # databases without derived metrics say so with an empty mapping
    plain = GraphFrame.from_hpctoolkit_latest(
        shared_data / "hpctoolkit/pipit-ping-pong-v4-database")
    assert plain.metadata["derived_metrics"] == {} and "derived_metrics_note" not in plain.metadata


def test_unreadable_taxonomy_warns_and_reads_the_profile(tmp_path):
    db = write_hpctoolkit_latest(sample_profile(), tmp_path / "db")
    (db / "metrics").mkdir()
    (db / "metrics" / "default.yaml").write_text("roots:\n  - name: [unclosed\n")
    with pytest.warns(UserWarning, match="derived metric formulas not read"):
        gf = GraphFrame.from_hpctoolkit_latest(db)
    assert gf.metadata["derived_metrics"] == {}
    assert gf.metadata["derived_metrics_error"] == (
        f"{db / 'metrics' / 'default.yaml'}: line 3, column 1: while parsing a flow sequence, "
        "expected ',' or ']', but got '<stream end>' (expected well-formed YAML)")
    assert gf.graph.num_nodes == 11


def test_copied_database_without_the_taxonomy(shared_data, tmp_path):
    copy = tmp_path / "db"
    shutil.copytree(shared_data / DERIVED, copy)
    shutil.rmtree(copy / "metrics")
    assert GraphFrame.from_hpctoolkit_latest(copy).metadata["derived_metrics"] == {}
