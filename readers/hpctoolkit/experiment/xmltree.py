"""Streaming, safe decoding of HPCToolkit's ``experiment.xml`` (the old database layout).

Parser choice: the standard library's expat binding (``xml.parsers.expat``),
driven directly with start/end handlers and fed in 1 MiB blocks, so memory
stays proportional to the calling-context tree's arrays, never to a DOM.
Real ``experiment.xml`` files carry an *internal* DTD subset (element and
attribute declarations only), so DTDs cannot simply be refused. Instead, as
``defusedxml`` does, the parser refuses what makes XML dangerous:

* any ``<!ENTITY ...>`` declaration (general or parameter, internal or
  external) raises ``ReadError`` the moment it is declared, before it could
  be referenced, so entity-expansion bombs never expand;
* a DOCTYPE naming an external DTD (``SYSTEM``/``PUBLIC``) is refused, and
  external entity references are never resolved;
* parameter-entity parsing stays off.

Self-closing ``<M .../>`` summary values are cut out of the byte stream before
expat sees it (no node needs them and they are most of a file's elements);
error columns on such lines are counted without them.

Files as hpcprof writes them take a faster route: expat still reads every
byte (with no handlers inside ``SecCallPathProfileData``), and that section is
decoded with numpy (:mod:`.fastcct`). Any other well-formed file, and every
malformed one, goes through the handlers below, which give the located errors.

The result is a :class:`CallingContextTree`: plain lists/arrays in document
order, one entry per node (``PF``, ``Pr``, ``L``, ``S``; ``C`` call sites and
nameless ``Pr`` are not nodes: their children attach to the enclosing node),
plus the header tables.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional
from xml.parsers import expat

import numpy as np

from ...errors import ReadError
from ...heap import release_free_heap
from .fastcct import ATTRIBUTES, TAG_NAMES, NotCanonical, Tokens, build_tree

BLOCK = 1 << 20

#: Element names of the tables read from ``SecHeader`` (first table of each kind).
TABLES = {"LoadModuleTable": "LoadModule", "FileTable": "File",
          "ProcedureTable": "Procedure", "MetricDBTable": "MetricDB",
          "MetricTable": "Metric"}

NODE_TAGS = ("PF", "Pr", "L", "S")

#: ``<M n=".." v=".."/>`` summary values (two thirds of a real file's elements): no node
#: needs them, so they are cut from each block before expat sees it. A literal ``<`` can
#: only start markup in well-formed XML (attribute values escape it), so this removes
#: nothing else; line numbers are kept (the pattern cannot span a line break: ``<M`` and
#: a line break is left to expat).
SUMMARY_VALUE = re.compile(rb"<M[ \t\r][^<>\n]*/>")


@dataclass
class CallingContextTree:
    """What ``experiment.xml`` says, in document order.

    Node lists (one entry per node): ``nid`` (the XML ``i``), ``parent``
    (position of the enclosing node, -1 for roots), ``tag``, ``n`` (procedure
    reference), ``f`` (file reference: the element's own for ``PF``/``Pr``/``L``,
    the enclosing scope's for ``S``), ``l`` (line), ``lm`` (load-module
    reference) and ``call_line`` (the ``l`` of the XML parent, which prefixes
    procedure names). Tables map ids to names.

    The general parser fills them as lists and ``array('q')`` (line texts as
    written); the fast route (:mod:`.fastcct`) as numpy arrays, with the lines
    already integers. Both read the same way.
    """

    nid: array = field(default_factory=lambda: array("q"))
    parent: array = field(default_factory=lambda: array("q"))
    tag: List[str] = field(default_factory=list)
    n: List[Optional[str]] = field(default_factory=list)
    f: List[Optional[str]] = field(default_factory=list)
    l: List[Optional[str]] = field(default_factory=list)
    lm: List[Optional[str]] = field(default_factory=list)
    call_line: List[Optional[str]] = field(default_factory=list)
    xml_line: array = field(default_factory=lambda: array("q"))
    tables: Dict[str, Dict[str, str]] = field(default_factory=dict)
    metric_dbs: List[Dict[str, str]] = field(default_factory=list)
    metrics: List[Dict[str, str]] = field(default_factory=list)
    header: Dict[str, str] = field(default_factory=dict)
    summary: tuple = field(default_factory=lambda: ([], [], []))
    has_data: bool = False
    data_offset: int = -1

    def __len__(self) -> int:
        return len(self.nid)


def parse_experiment_xml(path: Any, progress_step=None, summary: bool = False) -> CallingContextTree:
    """Parse ``experiment.xml`` at ``path`` into a :class:`CallingContextTree`.

    With ``summary``, the ``<M n= v=/>`` values of each node are kept
    (``CallingContextTree.summary``: node positions, metric ids, value texts);
    otherwise they are cut from the stream unread.

    Raises :class:`ReadError` (file, line and column) for malformed XML, entity
    declarations, an external DTD or a node without an ``i`` attribute.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "experiment.xml")
    >>> with open(p, "w") as fh:
    ...     _ = fh.write('<HPCToolkitExperiment><SecCallPathProfile><SecHeader>'
    ...                  '<ProcedureTable><Procedure i="1" n="main"/></ProcedureTable>'
    ...                  '</SecHeader><SecCallPathProfileData><PF i="2" n="1" l="3" f="0">'
    ...                  '<S i="3" l="4"/></PF></SecCallPathProfileData>'
    ...                  '</SecCallPathProfile></HPCToolkitExperiment>')
    >>> cct = parse_experiment_xml(p)
    >>> cct.nid.tolist(), cct.parent.tolist(), list(cct.tag)
    ([2, 3], [-1, 0], ['PF', 'S'])
    """
    path = Path(path)
    if not summary:
        reported = _Reported(progress_step)
        try:
            return _ExperimentParser(path, fast=True).parse(reported.step)
        except NotCanonical:  # not as hpcprof writes it: the general parser reads it
            progress_step = reported.resume
    return _ExperimentParser(path, summary).parse(progress_step)


class _Reported:
    """Progress of a first attempt, so that a second pass reports only bytes beyond it."""

    def __init__(self, progress_step) -> None:
        self.progress_step = progress_step
        self.done = self.again = 0

    def step(self, size: int) -> None:
        self.done += size
        if self.progress_step is not None:
            self.progress_step(size)

    def resume(self, size: int) -> None:
        before, self.again = self.again, self.again + size
        beyond = self.again - max(before, self.done)
        if beyond > 0 and self.progress_step is not None:
            self.progress_step(beyond)


class _ExperimentParser:
    def __init__(self, path: Path, summary: bool = False, fast: bool = False) -> None:
        self.path = path
        self.summary = summary
        self.fast = fast
        self.tokens = Tokens()
        self.data_tag: Optional[tuple] = None  # fast: (byte index, line) of the section's tag
        self.skipped = False  # fast: the section's content was decoded without expat
        self.owners: List[int] = [-1]  # with summary: the node an <M> belongs to (-1: none)
        self.cct = CallingContextTree()
        self.parser = expat.ParserCreate()
        p = self.parser
        p.buffer_text = False
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self._doctype
        p.EntityDeclHandler = self._entity
        p.ExternalEntityRefHandler = self._external
        p.StartElementHandler = self._start_header
        p.EndElementHandler = self._end_header
        if fast:
            p.AttlistDeclHandler = self._attribute_default
        self.table: Optional[str] = None       # table element being read
        self.done_tables: set = set()
        self.data_seen = False
        # stack entries: (node position for children, line text, enclosing file)
        self.stack: List[tuple] = []
        # the first ProcedureTable's names (filled as cct.tables["Procedure"] is)
        self.procedures: Dict[str, str] = self.cct.tables.setdefault("Procedure", {})

    # ------------------------------------------------------------- driver
    def parse(self, progress_step=None) -> CallingContextTree:
        try:
            return self._parse(progress_step)
        finally:
            # the expat parser's handlers are bound methods of self: break that cycle now,
            # so the parse state (a million-entry intern table...) is freed on return
            # instead of at the next full garbage collection
            self.parser = None
            self._append = self._intern = None

    def _parse(self, progress_step=None) -> CallingContextTree:
        try:
            fh = open(self.path, "rb")
        except OSError as exc:
            raise ReadError(self.path, f"cannot open the file: {exc.strerror}") from exc
        with fh:
            try:
                if self.fast:
                    self._feed_fast(fh, progress_step)
                else:
                    self._feed(fh, progress_step)
            except expat.ExpatError as exc:
                if self.fast:
                    raise NotCanonical("malformed XML") from exc
                raise ReadError(self.path, f"malformed XML: {expat.ErrorString(exc.code)}",
                                position=f"line {exc.lineno}, column {exc.offset + 1}",
                                expected="well-formed XML") from exc
        if not self.cct.has_data:
            raise ReadError(self.path, "the file has no SecCallPathProfileData section",
                            position="end of file",
                            expected="an HPCToolkit experiment.xml with a calling-context tree")
        if self.fast:
            self._fill_from(build_tree(self.tokens, self.procedures))
            self.tokens = None
            release_free_heap(len(self.cct.nid))  # the decoder's temporaries (large trees)
        return self.cct

    @staticmethod
    def _blocks(fh, progress_step, whole_tags: bool = False):
        """The file in blocks that end where a tag starts (the cut tag starts the next block).

        With ``whole_tags``, a block whose only tag start is its first byte is
        read on rather than cut inside that tag (the fast route decodes whole
        tags only).
        """
        carry = b""
        while True:
            block = fh.read(BLOCK)
            if not block:
                yield carry, True
                return
            data = carry + block
            cut = data.rfind(b"<")
            if cut > 0:
                data, carry = data[:cut], data[cut:]
            elif whole_tags:
                if len(data) > 16 * BLOCK:
                    raise NotCanonical("no tag starts in 16 blocks")
                carry, data = data, b""
            else:
                carry = b""
            if data:
                yield data, False
            if progress_step is not None:
                progress_step(len(block))

    def _feed(self, fh, progress_step) -> None:
        for data, last in self._blocks(fh, progress_step):
            self.parser.Parse(data if self.summary else SUMMARY_VALUE.sub(b"", data), last)

    # ------------------------------------------------- fast route (fastcct)
    def _feed_fast(self, fh, progress_step) -> None:
        """expat reads the file but the section's content, which numpy checks and decodes."""
        parse, fed, line = self.parser.Parse, 0, 1
        state = "header"  # then "section", then "after"
        for data, last in self._blocks(fh, progress_step, whole_tags=True):
            pos = 0
            if state == "header":
                tag = _DATA_START.search(data)
                if tag is None:
                    parse(data, last)
                    fed += len(data)
                    continue
                parse(data[:tag.end()], False)
                if self.data_tag is None or self.data_tag[0] != fed + tag.start() \
                        or data[tag.end() - 2] == ord("/"):
                    raise NotCanonical("the section's start tag")
                line = self.data_tag[1] + data.count(b"\n", tag.start(), tag.end())
                pos, state = tag.end(), "section"
            if state == "section":
                end = data.find(b"</SecCallPathProfileData", pos)
                line += self.tokens.add(data[pos:len(data) if end < 0 else end], line)
                if end < 0:
                    if last:
                        parse(b"", True)  # expat: the section is never closed
                    continue
                pos, state, self.skipped = end, "after", True
            parse(data[pos:], last)

    def _attribute_default(self, element, attribute, kind, default, required) -> None:
        # expat gives the handlers DTD defaults for attributes a tag leaves out; numpy would not
        if default is not None and element in TAG_NAMES and attribute in ATTRIBUTES:
            raise NotCanonical(f"the DTD gives <{element}> a default {attribute}")

    def _fill_from(self, tree) -> None:
        cct = self.cct
        cct.nid, cct.parent, cct.tag, cct.n = tree.nid, tree.parent, tree.tag, tree.n
        cct.f, cct.l, cct.lm, cct.call_line = tree.f, tree.l, tree.lm, tree.call_line
        cct.xml_line = tree.xml_line

    def _where(self) -> str:
        return f"line {self.parser.CurrentLineNumber}, column {self.parser.CurrentColumnNumber + 1}"

    def _error(self, problem: str, expected: str) -> Exception:
        if self.skipped:  # expat did not see the section: its positions are off from here
            return NotCanonical(problem)
        return ReadError(self.path, problem, position=self._where(), expected=expected)

    # ----------------------------------------------------------- security
    def _doctype(self, name, system_id, public_id, has_internal_subset) -> None:
        if system_id or public_id:
            raise self._error(f"the DOCTYPE refers to an external DTD ({system_id or public_id})",
                              "no external DTD (it is never fetched)")

    def _entity(self, name, is_parameter, value, base, system_id, public_id, notation) -> None:
        raise self._error(f"entity declaration <!ENTITY {name}> refused (entity expansion "
                          f"can exhaust memory)", "no entity declarations")

    def _external(self, context, base, system_id, public_id) -> int:
        raise self._error(f"external entity reference ({system_id}) refused",
                          "no external entities")

    # --------------------------------------------------- header sections
    def _start_header(self, name: str, attrs: Dict[str, str]) -> None:
        if name in TABLES and name not in self.done_tables:
            self._enter_table(name)
        elif name == "SecCallPathProfileData" and not self.data_seen:
            self.data_seen = True
            self.cct.has_data = True
            # nothing is cut from the stream before this element, so this is the file offset
            self.cct.data_offset = self.parser.CurrentByteIndex
            self.stack = [(-1, "0", None)]
            self._enter_data()
        elif name in ("Header", "SecCallPathProfile") and "n" in attrs:
            self.cct.header.setdefault(name, attrs["n"])
        elif name == "HPCToolkitExperiment" and "version" in attrs:
            self.cct.header.setdefault("version", attrs["version"])

    def _end_header(self, name: str) -> None:
        pass

    # one handler per table kind while inside a table (tens of thousands of entries)
    def _enter_table(self, table: str) -> None:
        self.table, self.entry = table, TABLES[table]
        p = self.parser
        p.EndElementHandler = self._end_table
        if self.entry in ("MetricDB", "Metric"):
            self.rows = self.cct.metric_dbs if self.entry == "MetricDB" else self.cct.metrics
            p.StartElementHandler = self._metric_entry
        else:
            self.names = self.cct.tables.setdefault(self.entry, {})
            p.StartElementHandler = self._name_entry

    def _end_table(self, name: str) -> None:
        if name == self.table:
            self.done_tables.add(name)
            self.table = None
            self.parser.StartElementHandler = self._start_header
            self.parser.EndElementHandler = self._end_header

    def _metric_entry(self, name: str, attrs: Dict[str, str]) -> None:
        if name == self.entry:
            self.rows.append(dict(attrs))

    def _name_entry(self, name: str, attrs: Dict[str, str]) -> None:
        if name == self.entry:
            ident = attrs.get("i")
            if ident is None:
                raise self._error(f"<{name}> has no 'i' attribute", "an id attribute i=...")
            self.names[ident] = attrs.get("n", "")

    # ------------------------------------------------- calling-context tree
    def _enter_data(self) -> None:
        if self.fast:  # numpy decodes the content, which expat never sees
            self.data_tag = (self.parser.CurrentByteIndex, self.parser.CurrentLineNumber)
            return
        cct = self.cct
        self._intern = {}.setdefault  # one object per distinct attribute text
        self._append = (cct.nid.append, cct.parent.append, cct.tag.append, cct.n.append,
                        cct.f.append, cct.l.append, cct.lm.append, cct.call_line.append,
                        cct.xml_line.append)
        if self.summary:
            self.parser.StartElementHandler = self._start_summary
            self.parser.EndElementHandler = self._end_summary
        else:
            self.parser.StartElementHandler = self._start_cct
            self.parser.EndElementHandler = self._end_cct

    def _start_cct(self, name: str, attrs: Dict[str, str]) -> None:
        # hot path: one call per element of the tree (M elements included)
        if name == "M":
            return
        stack = self.stack
        parent, parent_line, enclosing = stack[-1]
        get = attrs.get
        if name == "C" or (name == "Pr" and self.procedures.get(get("n"), get("n")) == ""):
            stack.append((parent, get("l", "0"), get("f", enclosing)))
            return
        if name not in NODE_TAGS:
            raise self._error(f"unexpected element <{name}> in the calling-context tree",
                              "one of PF, Pr, L, S, C, M")
        ident = get("i")
        if ident is None:
            raise self._error(f"<{name}> has no 'i' attribute",
                              "a node id i=... (the row in the metric-db files)")
        nid, par, tag, n, f, l, lm, call, xml_line = self._append
        try:
            nid(int(ident))
        except ValueError:
            raise self._error(f"<{name}> has a non-integer id i={ident!r}",
                              "an integer node id") from None
        except OverflowError:
            raise self._error(f"<{name}> has an id out of range i={ident!r}",
                              "an integer that fits in 64 bits") from None
        intern = self._intern
        own_file = enclosing if name == "S" else get("f", enclosing)
        own_file = intern(own_file, own_file)
        line = get("l", "0")
        line = intern(line, line)
        stack.append((len(self.cct.tag), line, own_file))
        par(parent)
        tag(name)
        ref = get("n")
        n(intern(ref, ref))
        f(own_file)
        l(line)
        ref = get("lm")
        lm(intern(ref, ref))
        call(parent_line)
        xml_line(self.parser.CurrentLineNumber)

    def _start_summary(self, name: str, attrs: Dict[str, str]) -> None:
        if name == "M":
            owner = self.owners[-1]
            if owner >= 0:
                self.cct.summary[0].append(owner)
                self.cct.summary[1].append(attrs.get("n"))
                self.cct.summary[2].append(attrs.get("v"))
            return
        before = len(self.cct.tag)
        self._start_cct(name, attrs)
        self.owners.append(before if len(self.cct.tag) > before else -1)

    def _end_summary(self, name: str) -> None:
        if name not in ("M", "SecCallPathProfileData"):
            self.owners.pop()
        self._end_cct(name)

    def _end_cct(self, name: str) -> None:
        if name == "M":
            return
        if name == "SecCallPathProfileData":
            self.parser.StartElementHandler = self._start_header
            self.parser.EndElementHandler = self._end_header
            return
        self.stack.pop()


_DATA_START = re.compile(rb"<SecCallPathProfileData\b[^<>]*>")
_TOTAL = re.compile(rb"\s*<M\s([^<>]*?)/>")
_ATTR = re.compile(rb"""([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def experiment_totals(path: Any, offset: int) -> Dict[int, float]:
    """The ``<M n= v=/>`` values written directly inside ``<SecCallPathProfileData>``.

    hpcprof writes there each metric's total over the whole experiment (all
    roots, ranks and threads; 6 significant digits). ``offset`` is where the
    element starts (:attr:`CallingContextTree.data_offset`). Returns
    ``{metric id: value}``; empty when the file has no such values.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "experiment.xml")
    >>> with open(p, "wb") as fh:
    ...     _ = fh.write(b'<SecCallPathProfileData>\\n<M n="2" v="3.99824e+06"/><PF i="2"/>')
    >>> experiment_totals(p, 0)
    {2: 3998240.0}
    """
    try:
        with open(path, "rb") as fh:
            fh.seek(max(offset, 0))
            data = fh.read(BLOCK)
    except OSError as exc:
        raise ReadError(path, f"cannot open the file: {exc.strerror}") from exc
    start = _DATA_START.match(data)
    if offset < 0 or start is None:
        return {}
    totals: Dict[int, float] = {}
    pos = start.end()
    while True:
        element = _TOTAL.match(data, pos)
        if element is None:
            return totals
        attrs = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
                 for m in _ATTR.finditer(element.group(1))}
        try:
            totals[int(attrs[b"n"])] = float(attrs[b"v"])
        except (KeyError, ValueError, OverflowError) as exc:
            raise ReadError(path, f"a total value {element.group(0).strip()!r} of "
                            "SecCallPathProfileData is not a metric id and a number",
                            position=f"byte {offset + pos}",
                            expected='<M n="metric id" v="number"/>') from exc
        pos = element.end()


def int_column(values: List[Optional[str]], source: Any, what: str,
               xml_lines: Optional[List[int]] = None) -> np.ndarray:
    """Decimal strings -> int64 (``"10-12"`` line ranges keep their start; None -> 0).

    A text that is not an integer, or one that does not fit in 64 bits,
    raises :class:`ReadError` naming the file and the XML line.

    Examples
    --------
    >>> int_column(["3", "10-12", None], "experiment.xml", "line").tolist()
    [3, 10, 0]
    >>> int_column(["1", "99999999999999999999999"], "experiment.xml", "line", [7, 8])
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: experiment.xml: line 8: line '99999999999999999999999' is out of range (expected an integer that fits in 64 bits)
    """
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return values.astype(np.int64, copy=False)
    try:
        return np.fromiter(map(int, values), dtype=np.int64, count=len(values))
    except (TypeError, ValueError, OverflowError):
        pass
    out = np.empty(len(values), dtype=np.int64)
    for k, text in enumerate(values):
        if text is None:
            out[k] = 0
            continue
        head = text.split("-", 1)[0].strip() if "-" in text[1:] else text.strip()
        where = f"line {xml_lines[k]}" if xml_lines else f"node {k}"
        try:
            out[k] = int(head)
        except ValueError:
            raise ReadError(source, f"{what} {text!r} is not an integer", position=where,
                            expected=f"an integer {what}") from None
        except OverflowError:
            raise ReadError(source, f"{what} {text!r} is out of range", position=where,
                            expected="an integer that fits in 64 bits") from None
    return out
