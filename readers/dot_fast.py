"""Line-at-a-time fast path for DOT written one statement per line (gprof2dot).

gprof2dot writes every statement on its own line: ``digraph {``, ``ID=ID``,
``graph/node/edge [...]`` defaults, ``ID [...]`` nodes, ``ID -> ID [...]``
edges and ``}``. :func:`parse_lines` decodes such text with one regular
expression per line (a C-level match instead of a Python step per token) and
returns ``None`` as soon as a line has any other shape; the caller then uses
the general parser (:mod:`readers.dot_syntax`), which also locates errors. The
result is identical to the general parser's on the text it accepts.
"""

from __future__ import annotations

import re
from typing import Dict, Optional

from .dot_syntax import DotGraph

_ID = r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)'
_ATTRS = r'(?:\s*\[(?P<attrs>(?:[^\]"\n]|"(?:[^"\\\n]|\\.)*")*)\])?'
_END = r"[ \t]*;?[ \t]*\r?$"
_EDGE = re.compile(rf"^[ \t]*(?P<src>{_ID})[ \t]*->[ \t]*(?P<dst>{_ID}){_ATTRS}{_END}")
_NODE = re.compile(rf"^[ \t]*(?P<node>{_ID}){_ATTRS}{_END}")
_ASSIGN = re.compile(rf"^[ \t]*(?P<key>{_ID})[ \t]*=[ \t]*(?P<value>{_ID}){_END}")
_PAIR_TEXT = rf"[ \t]*({_ID})[ \t]*=[ \t]*({_ID})[ \t]*[,;]?[ \t]*"
_PAIR = re.compile(_PAIR_TEXT)
_PAIRS = re.compile(rf"(?:{_PAIR_TEXT})*")
_OPEN = re.compile(rf"^[ \t\ufeff]*(?P<strict>strict[ \t]+)?digraph(?:[ \t]+(?P<name>{_ID}))?[ \t]*\{{[ \t]*\r?$",
                   re.I)
_KEYWORDS = {"strict", "graph", "digraph", "subgraph", "node", "edge"}


def _unquote(token: str) -> str:
    if token[:1] == '"':
        token = token[1:-1]
        if "\\" in token:
            token = token.replace('\\"', '"')
    return token


def _attrs(text: Optional[str]) -> Optional[Dict[str, str]]:
    if not text:
        return {}
    if _PAIRS.fullmatch(text) is None:
        return None
    return {(k[1:-1] if k[:1] == '"' else k): (
        (v[1:-1].replace('\\"', '"') if "\\" in v else v[1:-1]) if v[:1] == '"' else v)
        for k, v in _PAIR.findall(text)}


def parse_lines(text: str) -> Optional[DotGraph]:
    """Decode one-statement-per-line DOT; ``None`` when the text has another shape.

    Examples
    --------
    >>> g = parse_lines('digraph {\\n\\tnode [shape=box];\\n\\ta -> "b c" [label="1"];\\n'
    ...                 '\\ta [label="x"];\\n\\t"b c";\\n}\\n')
    >>> g.nodes, g.edges
    ({'a': {'shape': 'box', 'label': 'x'}, 'b c': {'shape': 'box'}}, [('a', 'b c', {'label': '1'})])
    >>> parse_lines('digraph { a -> b }') is None
    True
    """
    lines = text.split("\n")
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first == len(lines):
        return None
    head = _OPEN.match(lines[first])
    if not head:
        return None
    last = len(lines) - 1
    while last > first and not lines[last].strip():
        last -= 1
    if last == first or lines[last].strip() != "}":
        return None
    g = DotGraph(strict=bool(head.group("strict")),
                 name=_unquote(head.group("name")) if head.group("name") else None)
    node_defaults: Dict[str, str] = {}
    edge_defaults: Dict[str, str] = {}
    created: Dict[str, Dict[str, str]] = {}
    offset = sum(len(line) + 1 for line in lines[:first + 1])
    nodes, implicit = g.nodes, g.implicit
    for line in lines[first + 1:last]:
        here = offset
        offset += len(line) + 1
        if not line.strip():
            continue
        m = (_EDGE.match(line) if "->" in line else None) or _NODE.match(line) or \
            _ASSIGN.match(line)
        if m is None:
            return None
        attrs = _attrs(m.groupdict().get("attrs"))
        if attrs is None:
            return None
        groups = m.groupdict()
        node = groups.get("node")
        if node is not None:
            name = _unquote(node)
            if node[:1] != '"' and name.lower() in _KEYWORDS:
                kw = name.lower()
                if kw == "graph":
                    g.attributes.update(attrs)
                elif kw == "node":
                    node_defaults.update(attrs)
                elif kw == "edge":
                    edge_defaults.update(attrs)
                else:
                    return None
                continue
            if name in nodes:
                nodes[name].update(attrs)
                continue
            if name in implicit:
                del implicit[name]
                merged = created.pop(name)
            else:
                merged = dict(node_defaults)
            merged.update(attrs)
            nodes[name] = merged
            g.node_offsets[name] = here + len(line) - len(line.lstrip())
            continue
        src = groups.get("src")
        if src is not None:
            a, b = _unquote(src), _unquote(m.group("dst"))
            if any(t[:1] != '"' and t.lower() in _KEYWORDS for t in (src, m.group("dst"))):
                return None
            pos = here + len(line) - len(line.lstrip())
            for end in (a, b):
                if end not in nodes and end not in implicit:
                    implicit[end] = pos
                    created[end] = dict(node_defaults)
            merged = dict(edge_defaults)
            merged.update(attrs)
            g.edges.append((a, b, merged))
            g.edge_offsets.append(pos)
            continue
        key = m.group("key")
        if key[:1] != '"' and key.lower() in _KEYWORDS:
            return None
        g.attributes[_unquote(key)] = _unquote(m.group("value"))
    return g
