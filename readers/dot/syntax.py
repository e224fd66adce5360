"""A fast parser for the Graphviz DOT language (pure, over text).

:func:`parse_graph` turns DOT text into a :class:`DotGraph`: node statements
(id -> attributes, in declaration order) and edges ``(src, dst, attributes)``.
It follows the DOT grammar (``strict``, ``graph``/``digraph``, node, edge and
attribute statements with scoped ``node [...]``/``edge [...]`` defaults,
``ID = ID``, subgraphs, ports, comments, ``+`` string concatenation, HTML
strings) and reports malformed input with the line and column.

Why not pydot at run time: pydot (pyparsing) needs about 3 s for a 116 KB
gprof2dot file and, on a syntax error, prints to stdout and returns ``None``
without a position. This parser reads the same file in a few tens of
milliseconds, and the tests check that pydot and the reader agree on every
real file. gprof2dot's own output is read by the faster whole-text scan of
:mod:`graphframe_readers.dot.scan`; this parser reads any other DOT and locates errors.

Attribute values and ids are returned as DOT gives them after removing the
quotes: ``\\"`` becomes ``"`` and backslash-newline continuations are
dropped; other backslash sequences (``\\n`` in labels) are left for the
label decoder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, List, Optional, Tuple

from ..errors import ReadError


@lru_cache(maxsize=None)
def _token_pattern() -> "re.Pattern[str]":
    """The tokenizer's expression, compiled on first use (its Unicode identifier
    class makes compiling cost tens of milliseconds, which sniffing a file of
    any other format would otherwise pay)."""
    return re.compile(
        r"""(?P<ws>[ \t\r\n\f\v\ufeff]+|//[^\n]*|/\*.*?\*/|(?:(?<=\n)|^)\#[^\n]*)
          |(?P<str>"(?:[^"\\]|\\.)*")
          |(?P<id>[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*)
          |(?P<num>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
          |(?P<op>->|--)
          |(?P<html><)
          |(?P<p>[{}\[\];,=:+])""",
        re.X | re.S)


_KEYWORDS = {"strict", "graph", "digraph", "subgraph", "node", "edge"}
_UNQUOTE = re.compile(r'\\(")|\\\r?\n')


@dataclass
class DotGraph:
    """Nodes and edges of one DOT graph.

    ``nodes`` maps node id -> attributes for every node that has a node
    statement (declaration order); ``implicit`` lists ids only mentioned in
    edges; ``edges`` holds ``(src, dst, attrs)``; ``*_offsets`` give the
    character offset of each node's first statement / each edge, for errors.
    """

    directed: bool = True
    strict: bool = False
    name: Optional[str] = None
    attributes: Dict[str, str] = field(default_factory=dict)
    nodes: Dict[str, Dict[str, str]] = field(default_factory=dict)
    node_offsets: Dict[str, int] = field(default_factory=dict)
    implicit: Dict[str, int] = field(default_factory=dict)
    edges: List[Tuple[str, str, Dict[str, str]]] = field(default_factory=list)
    edge_offsets: List[int] = field(default_factory=list)


def line_col(text: str, offset: int) -> str:
    """``"line L, column C"`` (1-based) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {col}"


def tokenize(text: str, source: Any = None) -> List[Tuple[str, str, int]]:
    """``(kind, value, offset)`` tokens; kinds ``id``, ``op``, ``p``, ``end``.

    Quoted strings, numerals and HTML strings become ``id`` tokens whose value
    is the unquoted text. Comments and whitespace are dropped.
    """
    tokens: List[Tuple[str, str, int]] = []
    append = tokens.append
    match = _token_pattern().match
    pos, n = 0, len(text)
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise _syntax(text, source, pos, _describe_bad(text, pos))
        kind = m.lastgroup
        end = m.end()
        if kind == "ws":
            pass
        elif kind == "str":
            value = m.group()[1:-1]
            if "\\" in value:
                value = _UNQUOTE.sub(lambda g: g.group(1) or "", value)
            append(("id", value, pos))
        elif kind == "html":
            end = _html_end(text, pos, source)
            append(("id", text[pos + 1:end - 1], pos))
        elif kind in ("id", "num"):
            append(("id", m.group(), pos))
        else:
            append((kind, m.group(), pos))
        pos = end
    append(("end", "", n))
    return tokens


def parse_graph(text: str, source: Any = None) -> DotGraph:
    """Parse DOT text holding exactly one graph.

    Examples
    --------
    >>> g = parse_graph('digraph { node [shape=box]; "a b" [label="x\\\\ny"]; '
    ...               '"a b" -> c -> d [label=2]; c [label=c]; d; }')
    >>> g.nodes
    {'a b': {'shape': 'box', 'label': 'x\\\\ny'}, 'c': {'shape': 'box', 'label': 'c'}, 'd': {'shape': 'box'}}
    >>> g.edges
    [('a b', 'c', {'label': '2'}), ('c', 'd', {'label': '2'})]
    """
    return _Parser(text, source).parse()


class _Parser:
    def __init__(self, text: str, source: Any) -> None:
        self.text = text
        self.source = source
        self.tokens = tokenize(text, source)
        self.i = 0
        self.graph = DotGraph()
        # scoped defaults: stack of (node defaults, edge defaults)
        self.scopes: List[Tuple[Dict[str, str], Dict[str, str]]] = [({}, {})]
        # node defaults in force when an edge first mentioned a node
        self.created: Dict[str, Dict[str, str]] = {}

    # --------------------------------------------------------- token access
    def peek(self, k: int = 0) -> Tuple[str, str, int]:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def take(self) -> Tuple[str, str, int]:
        tok = self.tokens[self.i]
        self.i = min(self.i + 1, len(self.tokens) - 1)
        return tok

    def expect(self, value: str, what: str) -> None:
        kind, val, pos = self.take()
        if val != value or kind not in ("p", "op"):
            raise self.error(pos, f"found {_show(kind, val)}", what)

    def error(self, pos: int, problem: str, expected: str) -> ReadError:
        if pos >= len(self.text):
            problem = "the DOT text ends early (" + problem + ")"
        return ReadError(self.source, problem, position=line_col(self.text, pos),
                         expected=expected)

    def keyword(self, k: int = 0) -> Optional[str]:
        kind, val, _ = self.peek(k)
        if kind == "id" and val.lower() in _KEYWORDS:
            return val.lower()
        return None

    # ------------------------------------------------------------- grammar
    def parse(self) -> DotGraph:
        g = self.graph
        if self.keyword() == "strict":
            g.strict = True
            self.take()
        kw = self.keyword()
        kind, val, pos = self.peek()
        if kw not in ("graph", "digraph"):
            raise self.error(pos, f"found {_show(kind, val)}", "'digraph' or 'graph'")
        g.directed = kw == "digraph"
        self.take()
        if self.peek()[0] == "id":
            g.name = self.take()[1]
        self.expect("{", "'{' opening the graph body")
        self.statements(top=True)
        kind, val, pos = self.peek()
        if kind != "end":
            raise self.error(pos, f"found {_show(kind, val)} after the graph",
                             "the end of the file (one graph per file)")
        return g

    def statements(self, top: bool = False) -> None:
        depth = 0
        while True:
            kind, val, pos = self.peek()
            if kind == "p" and val == "}":
                self.take()
                if depth == 0:
                    return
                depth -= 1
                self.scopes.pop()
                self._skip_semicolon()
                continue
            if kind == "end":
                raise self.error(pos, "a '{' is never closed", "'}'")
            if kind == "p" and val == ";":
                self.take()
                continue
            if self._opens_subgraph():
                self._open_subgraph()
                depth += 1
                self.scopes.append((dict(self.scopes[-1][0]), dict(self.scopes[-1][1])))
                continue
            self.statement()

    def _opens_subgraph(self) -> bool:
        kw = self.keyword()
        if kw == "subgraph" or (self.peek()[0] == "p" and self.peek()[1] == "{"):
            # a subgraph used as an edge endpoint is not a plain statement
            j = 0
            if kw == "subgraph":
                j = 2 if self.peek(1)[0] == "id" else 1
            close = self._matching_brace(self.i + j)
            nxt = self.tokens[close + 1] if close + 1 < len(self.tokens) else ("end", "", 0)
            if nxt[0] == "op":
                raise self.error(self.peek()[2], "a subgraph is used as an edge endpoint",
                                 "edges between named nodes (as gprof2dot writes)")
            return True
        return False

    def _matching_brace(self, i: int) -> int:
        depth = 0
        for k in range(i, len(self.tokens)):
            kind, val, _ = self.tokens[k]
            if kind == "p" and val == "{":
                depth += 1
            elif kind == "p" and val == "}":
                depth -= 1
                if depth == 0:
                    return k
        return len(self.tokens) - 1

    def _open_subgraph(self) -> None:
        if self.keyword() == "subgraph":
            self.take()
            if self.peek()[0] == "id":
                self.take()
        self.expect("{", "'{' opening the subgraph")

    def _skip_semicolon(self) -> None:
        if self.peek()[0] == "p" and self.peek()[1] == ";":
            self.take()

    def statement(self) -> None:
        kind, val, pos = self.peek()
        kw = self.keyword()
        if kw in ("graph", "node", "edge") and self.peek(1)[1] == "[":
            self.take()
            attrs = self.attr_lists()
            if kw == "graph":
                self.graph.attributes.update(attrs)
            elif kw == "node":
                self.scopes[-1][0].update(attrs)
            else:
                self.scopes[-1][1].update(attrs)
            return
        if kind != "id" or kw in ("strict", "digraph", "subgraph"):
            raise self.error(pos, f"found {_show(kind, val)}", "a node, edge or attribute statement")
        if self.peek(1)[1] == "=" and self.peek(1)[0] == "p":
            self.take()
            self.take()
            kind2, val2, pos2 = self.take()
            if kind2 != "id":
                raise self.error(pos2, f"found {_show(kind2, val2)}", "a value after '='")
            self.graph.attributes[val] = val2
            return
        first = self.node_id()
        if self.peek()[0] == "op":
            self.edge_statement(first, pos)
        else:
            attrs = self.attr_lists() if self.peek()[1] == "[" else {}
            self.declare(first, pos, attrs)

    def node_id(self) -> str:
        kind, val, pos = self.take()
        if kind != "id":
            raise self.error(pos, f"found {_show(kind, val)}", "a node id")
        for _ in range(2):  # optional ':port[:compass]', ignored
            if self.peek()[0] == "p" and self.peek()[1] == ":":
                self.take()
                kind, port, ppos = self.take()
                if kind != "id":
                    raise self.error(ppos, f"found {_show(kind, port)}", "a port name after ':'")
        return val

    def edge_statement(self, first: str, pos: int) -> None:
        ends = [first]
        while self.peek()[0] == "op":
            kind, op, opos = self.take()
            if (op == "->") != self.graph.directed:
                raise self.error(opos, f"edge operator '{op}' in a "
                                 f"{'digraph' if self.graph.directed else 'graph'}",
                                 "'->' in a digraph, '--' in a graph")
            ends.append(self.node_id())
        attrs = dict(self.scopes[-1][1])
        if self.peek()[1] == "[":
            attrs.update(self.attr_lists())
        g = self.graph
        for node in ends:
            if node not in g.nodes and node not in g.implicit:
                g.implicit[node] = pos
                self.created[node] = dict(self.scopes[-1][0])
        for a, b in zip(ends, ends[1:]):
            g.edges.append((a, b, dict(attrs)))
            g.edge_offsets.append(pos)

    def declare(self, node: str, pos: int, attrs: Dict[str, str]) -> None:
        g = self.graph
        if node in g.nodes:
            g.nodes[node].update(attrs)
            return
        if node in g.implicit:  # created by an earlier edge: its defaults then
            del g.implicit[node]
            merged = self.created.pop(node)
        else:
            merged = dict(self.scopes[-1][0])
        merged.update(attrs)
        g.nodes[node] = merged
        g.node_offsets[node] = pos

    def attr_lists(self) -> Dict[str, str]:
        attrs: Dict[str, str] = {}
        while self.peek()[0] == "p" and self.peek()[1] == "[":
            self.take()
            while True:
                kind, key, pos = self.take()
                if kind == "p" and key == "]":
                    break
                if kind != "id":
                    raise self.error(pos, f"found {_show(kind, key)}",
                                     "an attribute name or ']'")
                value = "true"
                if self.peek()[1] == "=" and self.peek()[0] == "p":
                    self.take()
                    kind, value, vpos = self.take()
                    if kind != "id":
                        raise self.error(vpos, f"found {_show(kind, value)}",
                                         f"a value for attribute '{key}'")
                    while self.peek()[1] == "+" and self.peek()[0] == "p":
                        self.take()
                        kind, more, mpos = self.take()
                        if kind != "id":
                            raise self.error(mpos, f"found {_show(kind, more)}",
                                             "a quoted string after '+'")
                        value += more
                attrs[key] = value
                if self.peek()[0] == "p" and self.peek()[1] in (",", ";"):
                    self.take()
        return attrs


def _html_end(text: str, pos: int, source: Any) -> int:
    depth = 0
    for k in range(pos, len(text)):
        ch = text[k]
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return k + 1
    raise _syntax(text, source, pos, "an HTML string '<...>' is never closed")


def _describe_bad(text: str, pos: int) -> str:
    if text[pos] == '"':
        return "a quoted string is never closed"
    if text.startswith("/*", pos):
        return "a comment '/*' is never closed"
    return f"unexpected character {text[pos]!r}"


def _syntax(text: str, source: Any, pos: int, problem: str) -> ReadError:
    return ReadError(source, problem, position=line_col(text, pos),
                     expected="DOT syntax")


def _show(kind: str, val: str) -> str:
    if kind == "end":
        return "the end of the text"
    return repr(val if len(val) <= 40 else val[:37] + "...")
