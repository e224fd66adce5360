"""The fast path for DOT written one statement per line (gprof2dot): a whole-text scan.

gprof2dot writes every statement on its own line: ``digraph {``, ``ID=ID``,
``graph/node/edge [...]`` defaults, ``ID [...]`` nodes, ``ID -> ID [...]``
edges and ``}``. :func:`scan_tables` matches every statement of the text with
one regular expression (C-level, no dictionary per statement) and keeps only
what the reader uses (:class:`DotTables`). It declines (returns ``None``)
anything it would not read exactly like the general parser of
:mod:`graphframe_readers.dot.syntax` (repeated node statements, ``label``/``tooltip``
defaults, comments, keyword ids, statements sharing a line, edges to
undeclared nodes...); the reader then uses that parser, which also locates
errors. These two are the only DOT parsers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, List, Optional

from .syntax import DotGraph

_QUOTED = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'  # unrolled: no alternation per character
_ID = rf'{_QUOTED}|[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)'
_PAIR_TEXT = rf"[ \t]*({_ID})[ \t]*=[ \t]*({_ID})[ \t]*[,;]?[ \t]*"
_KEYWORDS = {"strict", "graph", "digraph", "subgraph", "node", "edge"}
_VALUE = rf"[ \t]*=[ \t]*({_ID})"
_PAIR_SCAN = (rf"[ \t]*(?:label{_VALUE}|tooltip{_VALUE}|(?:{_ID})[ \t]*=[ \t]*(?:{_ID}))"
              r"[ \t]*[,;]?[ \t]*")
# every spelling of the (case-insensitive) keywords, for C-level set tests
_KEYWORD_FORMS = frozenset("".join(c.upper() if bit else c for c, bit in
                                   zip(word, ((mask >> i) & 1 for i in range(len(word)))))
                           for word in _KEYWORDS for mask in range(2 ** len(word)))


class _Patterns:
    """The scanner's compiled expressions, compiled on first use.

    Their Unicode identifier classes make compiling them cost about a tenth
    of a second, which every ``import graphframe_readers``-and-sniff would otherwise
    pay (the registry imports each reader module to learn its format).
    """

    def __init__(self) -> None:
        self.pair = re.compile(_PAIR_TEXT)
        self.pairs = re.compile(rf"(?:{_PAIR_TEXT})*")
        self.open_line = re.compile(
            rf"^[ \t\ufeff]*(?P<strict>strict[ \t]+)?digraph(?:[ \t]+(?P<name>{_ID}))?[ \t]*\{{[ \t]*\r?$",
            re.I | re.M)
        # one statement per line: groups a, b (edge), the attribute list, label and
        # tooltip (the last of each in the list), k, v (ID = ID)
        self.stmt = re.compile(
            rf"^[ \t]*(?:({_ID})[ \t]*(?:->[ \t]*({_ID})[ \t]*)?(?:\[((?:{_PAIR_SCAN})*)\])?"
            rf"|({_ID})[ \t]*=[ \t]*({_ID}))[ \t]*;?[ \t]*\r?$", re.M)


@lru_cache(maxsize=None)
def _patterns() -> _Patterns:
    return _Patterns()


@dataclass
class DotTables:
    """What the gprof2dot reader uses of a DOT graph, as flat lists.

    ``labels``/``tooltips`` are None where a node has no such attribute;
    ``edge_labels`` likewise per edge. Values are unquoted as
    :class:`~graphframe_readers.dot.syntax.DotGraph` holds them (``\\n`` escapes kept).
    """

    node_ids: List[str] = field(default_factory=list)
    labels: List[Optional[str]] = field(default_factory=list)
    tooltips: List[Optional[str]] = field(default_factory=list)
    src: List[str] = field(default_factory=list)
    dst: List[str] = field(default_factory=list)
    edge_labels: List[Optional[str]] = field(default_factory=list)
    attributes: Dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_graph(cls, g: DotGraph) -> "DotTables":
        """The tables of a parsed :class:`~graphframe_readers.dot.syntax.DotGraph`."""
        return cls(node_ids=list(g.nodes),
                   labels=[a.get("label") for a in g.nodes.values()],
                   tooltips=[a.get("tooltip") for a in g.nodes.values()],
                   src=[e[0] for e in g.edges], dst=[e[1] for e in g.edges],
                   edge_labels=[e[2].get("label") for e in g.edges],
                   attributes=dict(g.attributes))


def scan_tables(text: str) -> Optional[DotTables]:
    r""":class:`DotTables` of one-statement-per-line DOT; ``None`` when the text
    needs the general parser.

    Examples
    --------
    >>> t = scan_tables('digraph {\n\tnode [shape=box];\n\t1 [label="main\\n50%"];\n'
    ...                 '\t1 -> "a b" [color=red, label="3\u00d7"];\n\t"a b" [tooltip="x.c"];\n}\n')
    >>> t.node_ids, t.labels, t.tooltips, t.src, t.dst, t.edge_labels
    (['1', 'a b'], ['main\\n50%', None], [None, 'x.c'], ['1'], ['a b'], ['3×'])
    >>> scan_tables('digraph { a -> b }') is None
    True
    """
    lead = len(text) - len(text.lstrip(" \t\r\n\ufeff"))
    patterns = _patterns()
    head = patterns.open_line.match(text, lead)
    if not head or '"label"' in text or '"tooltip"' in text:
        return None  # quoted attribute keys: the general parser decodes them
    start = head.end()
    end = text.rstrip(" \t\r\n").rfind("\n")
    if end < start or text[end:].strip() != "}":
        return None
    body = text[start:end]
    found = patterns.stmt.findall(body)
    if len(found) != sum(map(bool, map(str.strip, body.split("\n")))):
        return None  # some line is not a plain statement
    t = DotTables()
    node_rows = []
    edge_rows = []
    for row in found:
        a, b = row[0], row[1]
        if b:
            edge_rows.append(row)
        elif a:
            if a in _KEYWORD_FORMS:
                if not _keyword_statement(t, a.lower(), row[2]):
                    return None
                continue
            node_rows.append(row)
        else:
            k, v = row[5], row[6]
            if k in _KEYWORD_FORMS:
                return None
            t.attributes[_unquote(k)] = _unquote(v)
    escapes = '\\"' in body
    t.node_ids = _unquote_all([r[0] for r in node_rows], escapes)
    t.src = _unquote_all([r[0] for r in edge_rows], escapes)
    t.dst = _unquote_all([r[1] for r in edge_rows], escapes)
    declared = set(t.node_ids)
    if len(declared) != len(t.node_ids) or not (declared.issuperset(t.src)
                                                and declared.issuperset(t.dst)):
        return None  # repeated node statements merge; undeclared nodes are errors
    if declared & _KEYWORD_FORMS and any(
            r[0] in _KEYWORD_FORMS or r[1] in _KEYWORD_FORMS for r in edge_rows):
        return None  # an unquoted keyword as an edge end: the general parser decides
    t.labels = _optional([r[3] for r in node_rows], escapes)
    t.tooltips = _optional([r[4] for r in node_rows], escapes)
    t.edge_labels = _optional([r[3] for r in edge_rows], escapes)
    return t


def _keyword_statement(t: DotTables, keyword: str, attrs: str) -> bool:
    values = _attrs(attrs)
    if values is None or keyword not in ("graph", "node", "edge"):
        return False
    if keyword == "graph":
        t.attributes.update(values)
        return True
    # defaults would change labels/tooltips of the statements after them
    return "label" not in values and "tooltip" not in values


def _unquote_all(tokens: List[str], escapes: bool = True) -> List[str]:
    """:func:`_unquote` of every token (``escapes``: the text has ``\\"``)."""
    out = [t[1:-1] if t[:1] == '"' else t for t in tokens]
    if escapes and '\\"' in "".join(out):
        out = [t.replace('\\"', '"') for t in out]
    return out


def _optional(raw: List[str], escapes: bool) -> List[Optional[str]]:
    """Unquoted values; None where the attribute was absent (an empty capture)."""
    return [v if r else None for v, r in zip(_unquote_all(raw, escapes), raw)]


def _unquote(token: str) -> str:
    if token[:1] == '"':
        token = token[1:-1]
        if "\\" in token:
            token = token.replace('\\"', '"')
    return token


def _attrs(text: Optional[str]) -> Optional[Dict[str, str]]:
    if not text:
        return {}
    patterns = _patterns()
    if patterns.pairs.fullmatch(text) is None:
        return None
    return {(k[1:-1] if k[:1] == '"' else k): (
        (v[1:-1].replace('\\"', '"') if "\\" in v else v[1:-1]) if v[:1] == '"' else v)
        for k, v in patterns.pair.findall(text)}
