"""HPCToolkit experiment.xml: the vectorised route (fastcct) reads exactly what the general
expat parser reads, and hands every other file to it.

``parse_experiment_xml`` first tries the fast route and falls back to the general parser on
``NotCanonical``. The property checked throughout: whatever the bytes, the outcome (the
tree, or the ReadError's text) is the general parser's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.generate import generate
from graphframe_readers import ReadError
from graphframe_readers.hpctoolkit.experiment import xmltree
from graphframe_readers.hpctoolkit.experiment.fastcct import NotCanonical, Tokens
from graphframe_readers.hpctoolkit.experiment.xmltree import int_column, parse_experiment_xml
from graphframe_readers.testing import write_example_database, write_hpctoolkit

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "hpctoolkit"
FIELDS = ("nid", "parent", "tag", "n", "f", "lm", "xml_line")


def _general(path: Path):
    return xmltree._ExperimentParser(Path(path)).parse(None)


def _fast(path: Path):
    return xmltree._ExperimentParser(Path(path), fast=True).parse(None)


def _tree(cct) -> dict:
    """Every field of a parsed tree, as plain lists (lines as integers)."""
    out = {name: [None if v is None else v for v in list(getattr(cct, name))] for name in FIELDS}
    out["nid"] = [int(v) for v in out["nid"]]
    out["parent"] = [int(v) for v in out["parent"]]
    out["xml_line"] = [int(v) for v in out["xml_line"]]
    out["l"] = int_column(cct.l, "x", "line").tolist()
    out["call_line"] = int_column(cct.call_line, "x", "call-site line").tolist()
    for name in ("tables", "metric_dbs", "metrics", "header", "has_data", "data_offset"):
        out[name] = getattr(cct, name)
    return out


def _outcome(parse, path: Path):
    try:
        return ("tree", _tree(parse(path)))
    except ReadError as exc:
        return ("error", str(exc))


def _assert_same(path: Path) -> None:
    assert _outcome(parse_experiment_xml, path) == _outcome(_general, path)


def _with_section(path: Path, section: str) -> Path:
    """The example database's experiment.xml with its section's content replaced."""
    text = path.read_text()
    head, rest = text.split("<SecCallPathProfileData>", 1)
    tail = rest.split("</SecCallPathProfileData>", 1)[1]
    path.write_text(f"{head}<SecCallPathProfileData>{section}</SecCallPathProfileData>{tail}")
    return path


@pytest.fixture
def example_xml(tmp_path) -> Path:
    return write_example_database(tmp_path / "db") / "experiment.xml"


# ------------------------------------------------------------------- files hpcprof writes
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/hpctoolkit is absent "
                    "(real databases live beside the checkout)")
@pytest.mark.parametrize("name", ["hatchet-cpi-database", "hatchet-osu-allgather-database",
                                  "hpcviewer-inline-xml-mdb-database",
                                  "hpcviewer-bug-nometric-xml-database"])
def test_real_files_take_the_fast_route_with_the_same_tree(name):
    path = SHARED / name / "experiment.xml"
    fast = _tree(_fast(path))  # no NotCanonical: hpcprof's own files take the fast route
    assert fast == _tree(_general(path))
    assert len(fast["nid"]) > 0


def test_example_database(example_xml):
    fast = _tree(_fast(example_xml))
    assert fast == _tree(_general(example_xml))
    assert fast["tag"] == ["PF", "PF", "S", "L", "S"]
    assert fast["parent"] == [-1, 0, 1, 0, 3]
    assert fast["call_line"] == [0, 12, 30, 10, 15]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nodes=st.integers(2, 400), seed=st.integers(0, 10_000), summary=st.booleans(),
       block=st.sampled_from([64, 301, 4096, 1 << 20]))
def test_written_databases_agree(tmp_path_factory, nodes, seed, summary, block):
    raw = generate(nodes, ranks=2, seed=seed, depth=12)
    db = write_hpctoolkit(raw, tmp_path_factory.mktemp("db"), with_summary=summary)
    path = db / "experiment.xml"
    old = xmltree.BLOCK
    xmltree.BLOCK = block  # small blocks: tags and the section's tags cut at block ends
    try:
        assert _tree(_fast(path)) == _tree(_general(path))
    finally:
        xmltree.BLOCK = old


def test_a_file_over_several_blocks(tmp_path):
    raw = generate(6000, ranks=1, seed=3)
    path = write_hpctoolkit(raw, tmp_path / "db") / "experiment.xml"
    assert path.stat().st_size > 2 * xmltree.BLOCK // 2
    assert _tree(_fast(path)) == _tree(_general(path))


# --------------------------------------------------------- other files: the general parser
OTHER_FORMS = {
    "single quotes": """<PF i='1' s="7" l="10" lm="2" f="3" n="7"></PF>""",
    "spaces around =": """<PF i = "1" n="7"></PF>""",
    "two spaces": """<PF i="1"  n="7"></PF>""",
    "a line break between attributes": """<PF i="1"\n n="7"></PF>""",
    "space before >": """<PF i="1" n="7" ></PF>""",
    "space before />": """<PF i="1" n="7"><S i="2" l="3" /></PF>""",
    "a comment": """<PF i="1" n="7"><!-- here --><S i="2"/></PF>""",
    "CDATA": """<PF i="1" n="7"><![CDATA[x]]></PF>""",
    "a processing instruction": """<PF i="1" n="7"><?pi x?></PF>""",
    "a character reference": """<PF i="&#49;" n="7"></PF>""",
    "text between tags": """<PF i="1" n="7">x</PF>""",
    "a line range": """<PF i="1" n="7"><S i="2" l="10-12"/></PF>""",
    "a leading zero": """<PF i="01" n="7"></PF>""",
    "a sign": """<PF i="+1" n="7"></PF>""",
    "an unknown attribute": """<PF i="1" n="7" zz="3"></PF>""",
    "an unknown element": """<PF i="1" n="7"><Q i="2"/></PF>""",
    "an attribute twice": """<PF i="1" n="7" i="2"></PF>""",
    "a mismatched end tag": """<PF i="1" n="7"><L i="2"></PF></L>""",
    "an element left open": """<PF i="1" n="7"><L i="2"></PF>""",
    "an end tag too many": """<PF i="1" n="7"></PF></PF>""",
    "a node without i": """<PF n="7"><S l="3"/></PF>""",
    "a non-ASCII value": """<PF i="1" n="7"><S i="2" v="é"/></PF>""",
    "an M over two lines": """<PF i="1" n="7"><M n="2"\n v="1"/></PF>""",
    "an M not self-closing": """<PF i="1" n="7"><M n="2" v="1"></M></PF>""",
    "an M without attributes": """<PF i="1" n="7"><M/></PF>""",
    "a malformed M (cut unread by both)": """<PF i="1" n="7"><M n="2 v=1/></PF>""",
    "a lone carriage return": """<PF i="1" n="7">\r<S i="2"/></PF>""",
    "CRLF line ends": """\r\n<PF i="1" n="7">\r\n<S i="2" l="3"/>\r\n</PF>\r\n""",
    "tabs between tags": """\t<PF i="1" n="7">\t<S i="2"/></PF>""",
    "a > inside a value": """<PF i="1" n="7"><S i="2" v="a>b"/></PF>""",
    "a huge id": """<PF i="99999999999999999999999" n="7"></PF>""",
    "an empty value": """<PF i="1" n=""></PF>""",
    "a nameless procedure": """<PF i="1" n="7"><Pr i="2" n="99" l="4"><S i="3" l="5"/></Pr></PF>""",
    "an end tag with a space": """<PF i="1" n="7"></PF >""",
    "a tag split over lines": """<PF\ni="1" n="7"></PF>""",
}


@pytest.mark.parametrize("form", sorted(OTHER_FORMS))
def test_other_forms_read_as_the_general_parser_reads_them(example_xml, form):
    path = _with_section(example_xml, OTHER_FORMS[form])
    _assert_same(path)


@pytest.mark.parametrize("form", ["CRLF line ends", "tabs between tags",
                                  "a malformed M (cut unread by both)", "a nameless procedure"])
def test_forms_the_fast_route_reads_itself(example_xml, form):
    path = _with_section(example_xml, OTHER_FORMS[form])
    assert _tree(_fast(path)) == _tree(_general(path))


@pytest.mark.parametrize("form", ["single quotes", "a comment", "a line range",
                                  "an unknown attribute", "a mismatched end tag"])
def test_forms_handed_to_the_general_parser(example_xml, form):
    path = _with_section(example_xml, OTHER_FORMS[form])
    with pytest.raises(NotCanonical):
        _fast(path)


def test_attribute_defaults_from_the_dtd(example_xml):
    # a DTD can give an attribute a default: expat hands it to the general parser's handlers
    text = example_xml.read_text()
    dtd = '<!DOCTYPE HPCToolkitExperiment [<!ATTLIST S f CDATA "3" l CDATA "77">]>\n'
    example_xml.write_text(text.replace("<HPCToolkitExperiment", dtd + "<HPCToolkitExperiment",
                                        1))
    with pytest.raises(NotCanonical):
        _fast(example_xml)
    _assert_same(example_xml)


def test_errors_after_the_section_name_their_line(example_xml):
    # a table after the section (tables are read wherever they are): the fast route has not
    # shown expat the section, so its line would be wrong; the general parser gives it
    text = example_xml.read_text()
    table = '<LoadModuleTable><LoadModule i="2" n="app"/></LoadModuleTable>'
    assert table in text
    example_xml.write_text(text.replace(table, "").replace(
        "</SecCallPathProfile>", "\n<LoadModuleTable><LoadModule n='x'/></LoadModuleTable>"
        "</SecCallPathProfile>"))
    _assert_same(example_xml)
    line = example_xml.read_text().splitlines().index(
        "<LoadModuleTable><LoadModule n='x'/></LoadModuleTable></SecCallPathProfile>") + 1
    with pytest.raises(ReadError, match=f"line {line}, column 18: <LoadModule> has no 'i'"):
        parse_experiment_xml(example_xml)


def test_progress_counts_each_byte_once_when_the_general_parser_takes_over(tmp_path, monkeypatch):
    raw = generate(300, ranks=1, seed=1)
    path = write_hpctoolkit(raw, tmp_path / "db") / "experiment.xml"
    text = path.read_text()
    cut = text.rindex("<PF ")  # late in the file: the fast route has reported most bytes
    path.write_text(text[:cut] + "<!-- x -->" + text[cut:])
    monkeypatch.setattr(xmltree, "BLOCK", 997)
    steps = []
    parse_experiment_xml(path, progress_step=steps.append)
    assert sum(steps) == path.stat().st_size
    assert all(s > 0 for s in steps)


# ------------------------------------------------------------------------ random damage
PIECES = [" ", "\n", "\t", "'", '"', "=", "<", ">", "/", "&amp;", "x", "0", "7", "-", "\r",
          "\r\n", "é", "<!-- c -->", '<M n="1" v="2"/>', '<S i="99"/>', "</PF>", "<C>",
          ' l="5"', ' i="3"', "<PF", "Pr", "L", "M"]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_damaged_sections_read_as_the_general_parser_reads_them(tmp_path_factory, data):
    base = write_example_database(tmp_path_factory.mktemp("db")) / "experiment.xml"
    text = base.read_text()
    head, rest = text.split("<SecCallPathProfileData>", 1)
    section, tail = rest.split("</SecCallPathProfileData>", 1)
    section = section.replace('<S i="4"', '<M n="2" v="1.5e+06"/><S i="4"')
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(section)))
        action = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = data.draw(st.sampled_from(PIECES))
        if action == "insert":
            section = section[:at] + piece + section[at:]
        elif action == "delete":
            section = section[:at] + section[at + 1:]
        else:
            section = section[:at] + piece + section[at + 1:]
    path = base.parent / "damaged.xml"
    path.write_bytes(f"{head}<SecCallPathProfileData>{section}</SecCallPathProfileData>"
                     f"{tail}".encode())
    _assert_same(path)


# ----------------------------------------------------------------------- the decoder itself
def test_tokens_lines_and_values():
    t = Tokens()
    assert t.add(b'\n<PF i="12" n="345" f="6" l="0" lm="78" s="9">\n'
                 b'<M n="2" v="1"/><S i="13" l="4" it="5"/>\n</PF>\n', 10) == 4
    assert t.kind[0].tolist() == [1, 4, 1]
    assert t.line[0].tolist() == [11, 12]
    assert {k: v[0].tolist() for k, v in t.attrs.items()} == {
        "i": [12, 13], "n": [345, -1], "f": [6, -1], "l": [0, 4], "lm": [78, -1]}


def test_tokens_decode_long_numbers():
    t = Tokens()
    t.add(b'<S i="999999999999999999" l="1234567890123"/>', 1)
    assert t.attrs["i"][0].tolist() == [999999999999999999]
    assert t.attrs["l"][0].tolist() == [1234567890123]
    with pytest.raises(NotCanonical, match="over-long"):
        Tokens().add(b'<S i="9999999999999999999"/>', 1)


def test_tree_of_call_sites_and_files():
    t = Tokens()
    t.add(b'<PF i="1" n="7" f="2" l="3"><C i="2" l="9" f="5"><PF i="3" n="8" l="4">'
          b'<S i="4" l="6"/><L i="5" l="7"><S i="6" l="8"/></L></PF></C></PF>', 1)
    from graphframe_readers.hpctoolkit.experiment.fastcct import build_tree
    tree = build_tree(t, {"7": "main", "8": "foo"})
    assert tree.nid.tolist() == [1, 3, 4, 5, 6]
    assert tree.parent.tolist() == [-1, 0, 1, 1, 3]
    assert tree.call_line.tolist() == [0, 9, 4, 4, 7]
    assert list(tree.f) == ["2", "5", "5", "5", "5"]
    assert list(tree.tag) == ["PF", "PF", "S", "L", "S"]
    assert np.array_equal(tree.xml_line, [1, 1, 1, 1, 1])


#: pieces that keep a section in hpcprof's form or close to it (the fast route's own ground)
BETWEEN_TAGS = ["\n", " ", "\t", "\r\n", '<M n="2" v="1"/>', '<S i="9" l="3"/>',
                '<C i="8" l="4"></C>', '<C i="8" l="4">', "</C>", "</PF>", "<L i=\"14\">",
                '<Pr i="7" n="99" l="5"><S i="12"/></Pr>', '<Pr i="7" n="7" l="5" a="1">',
                '<L i="10" f="3" l="2"><S i="11" l="1" it="3"/></L>', '<PF i="13" n="8" l="0">',
                '<M n="1" v="2"/>\n<M n="3" v="4"/>', "x"]
LAST_ATTRIBUTE = [' v="0x10"', ' str="abc def"', ' it="5"', ' a="1"', ' s="0"', ' f="3"',
                  ' l="0"', ' l="007"', ' i="5"', ' t="x"', ' lm="2"', ' n="8"']


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_sections_near_hpcprofs_form_read_as_the_general_parser_reads_them(tmp_path_factory,
                                                                            data):
    base = write_example_database(tmp_path_factory.mktemp("db")) / "experiment.xml"
    text = base.read_text()
    head, rest = text.split("<SecCallPathProfileData>", 1)
    section, tail = rest.split("</SecCallPathProfileData>", 1)
    for _ in range(data.draw(st.integers(1, 4))):
        if data.draw(st.booleans()):
            places = [k + 1 for k, c in enumerate(section) if c == ">"] + [0]
            piece = data.draw(st.sampled_from(BETWEEN_TAGS))
        else:
            places = [k + 1 for k in range(len(section) - 1)
                      if section[k] == '"' and section[k + 1] in "/>"]
            piece = data.draw(st.sampled_from(LAST_ATTRIBUTE))
        at = data.draw(st.sampled_from(places))
        section = section[:at] + piece + section[at:]
    path = base.parent / "edited.xml"
    path.write_bytes(f"{head}<SecCallPathProfileData>{section}</SecCallPathProfileData>"
                     f"{tail}".encode())
    _assert_same(path)
