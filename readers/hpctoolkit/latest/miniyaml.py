"""A small YAML reader for the metric taxonomy HPCToolkit writes (``metrics/default.yaml``).

Not a general YAML parser (the project has no YAML dependency): it reads the
subset ``hpcprof`` writes and ``METRICS.yaml.ex`` documents: block mappings
and sequences by indentation, flow collections (``[a, b]``, ``{k: v}``),
plain and quoted scalars, anchors (``&name``) and aliases (``*name``), tags
(``!!str``, ignored), comments and the ``%YAML``/``---`` lines. Plain
scalars that look like numbers become numbers; ``true``/``false``/``null``
become ``True``/``False``/``None``. Anything else raises :class:`ReadError`
with the line number. Aliases share the anchored object.

Examples
--------
>>> doc = parse_yaml("inputs:\\n  - &x\\n    metric: A\\n    scope: function\\n"
...                  "roots:\\n  - name: R\\n    formula: {/: [*x, 2]}\\n", "m.yaml")
>>> doc["roots"][0]["formula"]["/"][0]["metric"], doc["roots"][0]["formula"]["/"][1]
('A', 2)
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ...errors import ReadError

_INT = re.compile(r"[-+]?\d+$")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
_SPECIAL = {"true": True, "false": False, "null": None, "~": None}


class _Line:
    __slots__ = ("number", "indent", "text")

    def __init__(self, number: int, indent: int, text: str) -> None:
        self.number, self.indent, self.text = number, indent, text


def parse_yaml(text: str, source: Any) -> Any:
    """The document in ``text`` as dicts, lists and scalars."""
    return _Parser(text, source).document()


class _Parser:
    def __init__(self, text: str, source: Any) -> None:
        self.source = source
        self.anchors: Dict[str, Any] = {}
        self.lines: List[_Line] = []
        for number, raw in enumerate(text.splitlines(), 1):
            body = _strip_comment(raw).rstrip()
            if not body.strip() or body.startswith("%") or body.strip() in ("---", "..."):
                continue
            if "\t" in body[: len(body) - len(body.lstrip())]:
                raise self.error(number, "a tab in the indentation", "spaces")
            self.lines.append(_Line(number, len(body) - len(body.lstrip(" ")), body.strip()))
        self.pos = 0

    def error(self, number: int, problem: str, expected: str) -> ReadError:
        return ReadError(self.source, problem, position=f"line {number}", expected=expected)

    def document(self) -> Any:
        if not self.lines:
            return None
        value = self.block(self.lines[0].indent)
        if self.pos < len(self.lines):
            line = self.lines[self.pos]
            raise self.error(line.number, f"unexpected text {line.text!r}",
                             "the end of the document or a deeper indentation")
        return value

    # ------------------------------------------------------------ block style
    def block(self, indent: int) -> Any:
        line = self.lines[self.pos]
        if line.indent != indent:
            raise self.error(line.number, f"indentation {line.indent}", f"indentation {indent}")
        if line.text == "-" or line.text.startswith("- "):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent: int) -> List[Any]:
        out: List[Any] = []
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.indent < indent or (line.indent == indent and not (
                    line.text == "-" or line.text.startswith("- "))):
                break  # the enclosing block continues (a sequence may sit at its key's column)
            if line.indent > indent:
                raise self.error(line.number, f"unexpected text {line.text!r}",
                                 "a sequence item '- ...'")
            rest = line.text[1:].strip()
            anchor, rest = _anchor(rest)
            if not rest:  # the item is the block below
                self.pos += 1
                value = self.nested(indent, line.number)
            elif _is_mapping_start(rest):  # "- key: value" opens a mapping at the item's column
                inner = indent + (len(line.text) - len(line.text[1:].lstrip())) \
                    + (len(line.text[1:].lstrip()) - len(rest))
                self.lines[self.pos] = _Line(line.number, inner, rest)
                value = self.mapping(inner)
            else:
                self.pos += 1
                value = self.scalar_or_flow(rest, line.number)
            if anchor:
                self.anchors[anchor] = value
            out.append(value)
        return out

    def mapping(self, indent: int) -> Dict[Any, Any]:
        out: Dict[Any, Any] = {}
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if line.indent < indent:
                break
            if line.indent > indent:
                raise self.error(line.number, f"unexpected indentation {line.indent}",
                                 f"indentation {indent}")
            key, rest = self.key(line)
            self.pos += 1
            anchor, rest = _anchor(rest)
            if rest[:1] in ("|", ">") and rest[1:] in ("", "-", "+"):
                value = self.block_scalar(indent, rest[0])
            elif rest:
                value = self.scalar_or_flow(rest, line.number)
            else:
                value = self.nested(indent, line.number, allow_same=True)
            if anchor:
                self.anchors[anchor] = value
            if key == "<<" and isinstance(value, dict):  # merge key: explicit keys win
                for k, v in value.items():
                    out.setdefault(k, v)
            else:
                out[key] = value
        return out

    def block_scalar(self, indent: int, style: str) -> str:
        """The lines of a ``|`` (kept) or ``>`` (folded) scalar: those indented deeper."""
        parts = []
        while self.pos < len(self.lines) and self.lines[self.pos].indent > indent:
            parts.append(self.lines[self.pos].text)
            self.pos += 1
        return ("\n" if style == "|" else " ").join(parts)

    def nested(self, indent: int, number: int, allow_same: bool = False) -> Any:
        """The block under a ``key:`` or ``-`` line (None when there is none)."""
        if self.pos >= len(self.lines):
            return None
        nxt = self.lines[self.pos]
        if nxt.indent > indent:
            return self.block(nxt.indent)
        if allow_same and nxt.indent == indent and nxt.text.startswith("- "):
            return self.sequence(indent)  # "key:" followed by a sequence at the same column
        return None

    def key(self, line: _Line) -> Tuple[Any, str]:
        text = line.text
        if text[0] in "\"'":
            key, end = _quoted(text, 0, line.number, self)
            rest = text[end:].lstrip()
            if not rest.startswith(":"):
                raise self.error(line.number, f"a quoted key without ':' in {text!r}", "key: value")
            return key, rest[1:].strip()
        at = _colon(text)
        if at < 0:
            raise self.error(line.number, f"no 'key:' in {text!r}", "a 'key: value' line")
        return _plain(re.sub(r"^(!\S*\s+)+", "", text[:at].strip())), text[at + 1:].strip()

    # ------------------------------------------------------------ flow style
    def scalar_or_flow(self, text: str, number: int) -> Any:
        value, end = self.flow(text, 0, number)
        if text[end:].strip():
            raise self.error(number, f"unexpected text {text[end:].strip()!r}",
                             "one value after the key")
        return value

    def flow(self, text: str, i: int, number: int, inside: bool = False) -> Tuple[Any, int]:
        i = _skip(text, i)
        anchor = None
        if text.startswith("&", i):
            m = re.compile(r"&([^\s,\[\]{}]+)").match(text, i)
            anchor, i = m.group(1), _skip(text, m.end())
        while text.startswith("!", i):  # tags: the value's own type is enough
            m = re.compile(r"!\S*").match(text, i)
            i = _skip(text, m.end())
        if i >= len(text):
            value, end = None, i
        elif text[i] == "[":
            value, end = self.flow_seq(text, i + 1, number)
        elif text[i] == "{":
            value, end = self.flow_map(text, i + 1, number)
        elif text[i] == "*":
            m = re.compile(r"\*([^\s,\[\]{}]+)").match(text, i)
            name = m.group(1)
            if name not in self.anchors:
                raise self.error(number, f"alias *{name} names no anchor above it",
                                 "an alias of an earlier &anchor")
            value, end = self.anchors[name], m.end()
        elif text[i] in "\"'":
            value, end = _quoted(text, i, number, self)
        else:
            stop = re.compile(r"[,\]}]" if inside else r"$").search(text, i)
            end = stop.start() if stop else len(text)
            if inside:  # a ':' followed by a space ends a flow key
                colon = re.compile(r":(\s|$)").search(text, i, end)
                end = colon.start() if colon else end
            value = _plain(text[i:end].strip())
        if anchor:
            self.anchors[anchor] = value
        return value, end

    def flow_seq(self, text: str, i: int, number: int) -> Tuple[List[Any], int]:
        out: List[Any] = []
        while True:
            i = _skip(text, i)
            if i >= len(text):
                raise self.error(number, "a '[' is not closed on its line", "']'")
            if text[i] == "]":
                return out, i + 1
            value, i = self.flow(text, i, number, inside=True)
            out.append(value)
            i = _skip(text, i)
            if i < len(text) and text[i] == ",":
                i += 1

    def flow_map(self, text: str, i: int, number: int) -> Tuple[Dict[Any, Any], int]:
        out: Dict[Any, Any] = {}
        while True:
            i = _skip(text, i)
            if i >= len(text):
                raise self.error(number, "a '{' is not closed on its line", "'}'")
            if text[i] == "}":
                return out, i + 1
            key, i = self.flow(text, i, number, inside=True)
            i = _skip(text, i)
            if i >= len(text) or text[i] != ":":
                raise self.error(number, f"a flow mapping key {key!r} without ':'", "{key: value}")
            value, i = self.flow(text, i + 1, number, inside=True)
            out[key] = value
            i = _skip(text, i)
            if i < len(text) and text[i] == ",":
                i += 1


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] == " ":
        i += 1
    return i


def _anchor(rest: str) -> Tuple[Optional[str], str]:
    """A leading ``&anchor`` and the rest (tags such as ``!!seq`` dropped around it)."""
    rest = re.sub(r"^(![^\s]*\s*)+", "", rest)
    m = re.match(r"&([^\s,\[\]{}]+)\s*", rest)
    anchor, rest = (m.group(1), rest[m.end():]) if m else (None, rest)
    return anchor, re.sub(r"^(![^\s]*\s*)+", "", rest)


def _is_mapping_start(text: str) -> bool:
    if text[0] in "\"'":
        quote = text[0]
        end = text.find(quote, 1)
        return end > 0 and text[end + 1:].lstrip().startswith(":")
    return text[0] not in "[{*!" and _colon(text) >= 0


def _colon(text: str) -> int:
    """Position of the ``:`` that ends a plain key (followed by a space or the line end)."""
    m = re.search(r":(\s|$)", text)
    return m.start() if m else -1


def _quoted(text: str, i: int, number: int, parser: _Parser) -> Tuple[str, int]:
    quote = text[i]
    out, j = [], i + 1
    while j < len(text):
        ch = text[j]
        if quote == "'" and ch == "'":
            if text.startswith("''", j):
                out.append("'")
                j += 2
                continue
            return "".join(out), j + 1
        if quote == '"' and ch == "\\" and j + 1 < len(text):
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(text[j + 1], text[j + 1]))
            j += 2
            continue
        if quote == '"' and ch == '"':
            return "".join(out), j + 1
        out.append(ch)
        j += 1
    raise parser.error(number, f"a {quote} string is not closed on its line", f"a closing {quote}")


def _strip_comment(line: str) -> str:
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (k == 0 or line[k - 1] in " [{,:-"):
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1] == " "):
            return line[:k]
    return line


def _plain(text: str) -> Any:
    if text in _SPECIAL:
        return _SPECIAL[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text
