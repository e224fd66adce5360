"""Decoding the node labels of a gprof2dot file with one layout for the whole file.

gprof2dot writes every node label as ``[process\\n][module\\n]name``, then one
line per measure the user asked for (``--node-label``, in that order), then
the sample count (``--show-samples``) and the call count, each as ``N×``.
For the inputs it reads (gprof, callgrind, perf, pstats and the other
profilers) every function carries the same measures, so **the trailing lines
have the same number and kinds on every node of a file**; only the call count
may be missing on some nodes (gprof's ``main`` has none). A single label is
ambiguous (perf names an unknown symbol by its address: the label
``[unknown]\\n1500\\n0.53%\\n(0.00%)`` has module ``[unknown]`` and name
``1500``, not a total of 1500), the file is not:

* **measures**: the trailing run of measure-like lines (``P%``, ``(P%)``,
  ``T``, ``(T)``) is as long as the file's layout on most nodes and longer
  where the name itself looks like a number; the layout is the shortest run
  in the file, and its kinds must agree on every node;
* **counts**: two ``N×`` lines are samples then calls. A single ``N×`` line is
  the call count, unless every node has exactly one, the file has edges and
  no edge label carries a call count: then the profile counts samples, not
  calls (perf, and other sampling profilers, with ``--show-samples``);
* **head**: the fewest head lines of any node give the number of lines
  before the name (0: gprof, pstats; 1: module; 2: process and module). A
  node with more head lines has a name wrapped by ``--wrap`` when the lines
  look like ``textwrap`` output of a long name (the DOT node id gives the
  exact name back when it is the name, as for callgrind and perf); otherwise
  its extra lines are read as module/process lines.

All of it is done with a few regular expressions over the text of all labels
at once (no per-node regular expression calls on the common path).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import ReadError

NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan"
#: measure kinds, the pattern of their line, and the value's capture
KINDS: Dict[str, str] = {
    "total_pct": rf"(?:{NUM})%",
    "self_pct": rf"\((?:{NUM})%\)",
    "total": rf"(?:{NUM})",
    "self": rf"\((?:{NUM})\)",
}
_KIND_RE = {k: re.compile(f"^{p}$") for k, p in KINDS.items()}
_CAPTURE = {  # the same, capturing the number
    "total_pct": rf"((?:{NUM}))%",
    "self_pct": rf"\(((?:{NUM}))%\)",
    "total": rf"((?:{NUM}))",
    "self": rf"\(((?:{NUM}))\)",
}
_EVENT = "(?:" + "|".join(KINDS.values()) + ")"
_COUNT = re.compile(r"^(\d+)\u00d7$")
_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "l": "\n", "r": "\n", "t": "\t", "\\": "\\", '"': '"'}
_SEPARATORS = ("\x1f", "\x1e", "\x1d", "\x1c", "\ue000", "\ue001")
_WRAP_WIDTH = 32  # gprof2dot wraps names longer than this at this width
NAN = math.nan


@dataclass(frozen=True)
class LabelLayout:
    """The layout shared by every node label of a file.

    ``events``: kinds of the measure lines, in order (``total_pct``,
    ``self_pct``, ``total``, ``self``); ``counts``: the meaning of the ``N×``
    lines of a node that has the most of them (``()``, ``("calls",)``,
    ``("samples",)`` or ``("samples", "calls")``); ``prefix``: head lines
    before the name (0, 1 = module, 2 = process and module).
    """

    events: Tuple[str, ...] = ()
    counts: Tuple[str, ...] = ()
    prefix: int = 0


@dataclass
class Labels:
    """Decoded labels: one entry per node (``None``/NaN where absent)."""

    layout: LabelLayout
    name: List[Optional[str]]
    module: List[Optional[str]]
    process: List[Optional[str]]
    values: Dict[str, np.ndarray]  # total_pct, self_pct, total, self, samples, calls


def label_lines(label: str) -> List[str]:
    """Split a DOT label into lines, undoing gprof2dot's escapes.

    Examples
    --------
    >>> label_lines(r'libc.so.6\\n(below main)\\n97.95%')
    ['libc.so.6', '(below main)', '97.95%']
    >>> label_lines(r'a\\\\b\\"c')
    ['a\\\\b"c']
    """
    text = _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), label)
    return text.split("\n")


def kind_of(line: str) -> Optional[str]:
    """The measure kind of one label line, or None.

    Examples
    --------
    >>> [kind_of(x) for x in ("97.95%", "(0.00%)", "0.9", "(9.4708e-05)", "main", "2×")]
    ['total_pct', 'self_pct', 'total', 'self', None, None]
    """
    for kind, pattern in _KIND_RE.items():
        if pattern.match(line):
            return kind
    return None


def decode_labels(labels: Sequence[Optional[str]], ids: Sequence[str], *,
                  edges: int = 0, edge_counts: int = 0, source: Any = None) -> Labels:
    """Decode every node label of one file with the file's layout.

    Parameters
    ----------
    labels : sequence of str or None
        The ``label`` attribute of every node as DOT gives it (escapes such
        as ``\\n`` not yet undone); None for a node without a label.
    ids : sequence of str
        The DOT node ids (for wrapped names and error messages).
    edges, edge_counts : int
        Number of edges in the file and how many of their labels carry a
        call count (decides whether a lone ``N×`` line counts samples).
    source : any
        Names the file in errors.

    Examples
    --------
    >>> d = decode_labels([r"[unknown]\\n1500\\n0.53%\\n(0.00%)",
    ...                    r"libc.so.6\\nmalloc\\n2.00%\\n(1.00%)"], ["a", "b"])
    >>> d.layout
    LabelLayout(events=('total_pct', 'self_pct'), counts=(), prefix=1)
    >>> d.module, d.name, d.values["total_pct"].tolist()
    (['[unknown]', 'libc.so.6'], ['1500', 'malloc'], [0.53, 2.0])
    """
    n = len(labels)
    present = [k for k, lab in enumerate(labels) if lab is not None]
    texts = [labels[k] for k in present]
    if not texts:  # no node has a label: names from the ids, no values
        return Labels(layout=LabelLayout(), name=[None] * n, module=[None] * n,
                      process=[None] * n, values={k: np.full(n, NAN) for k in (
                          "total_pct", "self_pct", "total", "self", "samples", "calls")})
    sep = _separator(texts, source)
    joined = _join_lines(texts, sep)
    split = re.compile(rf"^([^\n{sep}]*(?:{sep}[^\n{sep}]*)*?)((?:{sep}{_EVENT})*)"
                       rf"((?:{sep}\d+\u00d7){{0,2}})$", re.M)
    parts = split.findall(joined)
    if len(parts) != len(texts):  # the pattern matches any record: a bug if not
        raise RuntimeError("label decoding lost a label")  # pragma: no cover
    runs = [p[1] for p in parts]
    run_len = [r.count(sep) for r in runs]
    counts = [p[2] for p in parts]
    count_len = [c.count(sep) for c in counts]

    m = min(run_len) if run_len else 0
    kinds = _event_kinds(runs, run_len, m, sep)
    excess, values = _event_values(runs, kinds, sep, present, ids, source)
    layout_counts = _count_meaning(count_len, edges, edge_counts)
    heads = [p[0] + x if x else p[0] for p, x in zip(parts, excess)]
    name, module, process, prefix = _heads(heads, sep, n, present, ids)

    out_values = {k: np.full(n, NAN) for k in ("total_pct", "self_pct", "total", "self",
                                               "samples", "calls")}
    idx = np.asarray(present, dtype=np.int64)
    for kind, vals in values.items():
        out_values[kind][idx] = vals
    for kind, vals in _count_values(counts, count_len, layout_counts, sep).items():
        out_values[kind][idx] = vals
    layout = LabelLayout(events=kinds, counts=layout_counts, prefix=prefix)
    return Labels(layout=layout, name=name, module=module, process=process, values=out_values)


# ------------------------------------------------------------------ steps
def _separator(texts: Sequence[str], source: Any) -> str:
    """A character no label contains, to join label lines with."""
    everything = "".join(texts)
    for sep in _SEPARATORS:
        if sep not in everything:
            return sep
    raise ReadError(source, "the labels contain every control character the decoder can "
                    "use as a line separator (U+001C-U+001F, U+E000, U+E001)",
                    expected="gprof2dot labels")


def _join_lines(texts: Sequence[str], sep: str) -> str:
    """All labels, lines split at ``sep``, one label per text line."""
    joined = "\n".join(texts)
    if joined.count("\\") == joined.count("\\n") and joined.count("\n") == len(texts) - 1:
        return joined.replace("\\n", sep)  # only \\n escapes: one C-level replace
    return "\n".join(sep.join(label_lines(t)) if ("\\" in t or "\n" in t) else t
                     for t in texts)


def _event_kinds(runs: List[str], run_len: List[int], m: int, sep: str) -> Tuple[str, ...]:
    if m == 0:
        return ()
    shortest = runs[run_len.index(m)]
    return tuple(kind_of(line) or "" for line in shortest.split(sep)[1:])


def _event_values(runs: List[str], kinds: Tuple[str, ...], sep: str, present: List[int],
                  ids: Sequence[str], source: Any) -> Tuple[List[str], Dict[str, np.ndarray]]:
    """Split every run into head lines (names that look like numbers) and the
    file's measure lines; the measures as float arrays by kind."""
    if kinds:
        pattern = re.compile(rf"^((?:{sep}{_EVENT})*?)" + "".join(
            f"{sep}{_CAPTURE[k]}" for k in kinds) + "$", re.M)
        found = pattern.findall("\n".join(runs))
        if len(found) != len(runs):
            _raise_mixed(runs, kinds, sep, present, ids, source)
        excess = [f[0] for f in found]
    else:
        found, excess = [], runs
    for x, k in zip(excess, present):
        # a name may look like a number (perf names unknown symbols by address),
        # never like a percentage: then the nodes have different measures
        if x and any(kind_of(line) in ("total_pct", "self_pct") for line in x.split(sep)[1:]):
            counts = [r.count(sep) for r in runs]
            fewest = present[counts.index(min(counts))]
            raise ReadError(source, f"node {ids[k]!r} has {x.count(sep) + len(kinds)} measure "
                            f"lines but node {ids[fewest]!r} has {len(kinds)}",
                            position=f"node {ids[k]!r}",
                            expected="the same measures on every node (as gprof2dot writes)")
    values: Dict[str, np.ndarray] = {}
    for pos, kind in enumerate(kinds):
        if kind not in values:  # a measure asked for twice: the first line
            values[kind] = np.array([f[pos + 1] for f in found], dtype=float)
    return excess, values


def _raise_mixed(runs: List[str], kinds: Tuple[str, ...], sep: str, present: List[int],
                 ids: Sequence[str], source: Any) -> None:
    want = ", ".join(kinds)
    for run, k in zip(runs, present):
        got = tuple(kind_of(line) for line in run.split(sep)[1:])
        if got[len(got) - len(kinds):] != kinds:
            raise ReadError(source, f"node {ids[k]!r} ends with measures "
                            f"({', '.join(str(g) for g in got[-len(kinds):])}) where other "
                            f"nodes have ({want})", position=f"node {ids[k]!r}",
                            expected="the same measures on every node (as gprof2dot writes)")
    raise AssertionError("no node differs")  # pragma: no cover


def _count_meaning(count_len: List[int], edges: int, edge_counts: int) -> Tuple[str, ...]:
    most = max(count_len) if count_len else 0
    if most == 2:
        return ("samples", "calls")
    if most == 1:
        if min(count_len) == 1 and edges and not edge_counts:
            return ("samples",)
        return ("calls",)
    return ()


def _count_values(counts: List[str], count_len: List[int], meaning: Tuple[str, ...],
                  sep: str) -> Dict[str, np.ndarray]:
    if not meaning:
        return {}
    text = "\n".join(counts)
    found = re.findall(rf"^(?:{sep}(\d+)\u00d7)?(?:{sep}(\d+)\u00d7)?$", text, re.M)
    first = np.array([f[0] or "nan" for f in found], dtype=float)
    second = np.array([f[1] or "nan" for f in found], dtype=float)
    two = np.asarray(count_len) == 2
    if meaning == ("samples", "calls"):
        # a node with one count line in a samples file holds the sample count
        return {"samples": first, "calls": np.where(two, second, NAN)}
    return {meaning[0]: first}


def _heads(heads: List[str], sep: str, n: int, present: List[int], ids: Sequence[str]
           ) -> Tuple[List[Optional[str]], List[Optional[str]], List[Optional[str]], int]:
    """Names, modules and processes of all nodes, and the file's prefix lines."""
    name: List[Optional[str]] = [None] * n
    module: List[Optional[str]] = [None] * n
    process: List[Optional[str]] = [None] * n
    if not heads:
        return name, module, process, 0
    joined = "\n".join(heads)
    for lines in (1, 2, 3):  # the common case: every head has the same lines
        same = re.findall("^" + sep.join([f"([^\n{sep}]*)"] * lines) + "$", joined, re.M)
        if len(same) == len(heads):
            if lines == 1:
                same = [(x,) for x in same]
            columns = list(zip(*same))[::-1]  # name, module, process
            out = [name, module, process]
            for k, col in enumerate(columns):
                if len(present) == n:
                    out[k] = list(col)
                else:
                    for i, value in zip(present, col):
                        out[k][i] = value
            return out[0], out[1], out[2], lines - 1
    head_lines = [h.split(sep) for h in heads]
    prefix = min(2, min(len(h) for h in head_lines) - 1)
    for k, lines_ in zip(present, head_lines):
        name[k], module[k], process[k] = _split_head(lines_, prefix, ids[k])
    return name, module, process, prefix


def _split_head(lines: List[str], prefix: int, node_id: str
                ) -> Tuple[str, Optional[str], Optional[str]]:
    """``(name, module, process)`` from the head lines of one label."""
    if len(lines) > prefix + 1:
        rest = lines[prefix:]
        if _looks_wrapped(rest):
            return _unwrap(rest, node_id), *_prefix(lines[:prefix])
        prefix = min(2, len(lines) - 1)  # not a wrapped name: module/process lines
        if len(lines) > 3:
            return " ".join(lines[2:]), lines[1], lines[0]
    return lines[prefix], *_prefix(lines[:prefix])


def _prefix(lines: List[str]) -> Tuple[Optional[str], Optional[str]]:
    if len(lines) == 2:
        return lines[1], lines[0]
    if len(lines) == 1:
        return lines[0], None
    return None, None


def _looks_wrapped(lines: List[str]) -> bool:
    """True when ``lines`` could be ``textwrap.fill(name, 32)`` of one long name
    (then ``", "`` -> ``","`` and ``"> >"`` -> ``">>"`` as gprof2dot does)."""
    if any(not line for line in lines):
        return False
    total = 0
    for k, line in enumerate(lines):
        slack = line.count(",") + line.count(">>")
        total += len(line) + 1 + slack
        if len(line) > _WRAP_WIDTH and " " in line:
            return False
        if k + 1 < len(lines):
            nxt = lines[k + 1].split(" ", 1)[0]
            if len(line) + slack + 1 + len(nxt) + nxt.count(",") <= _WRAP_WIDTH:
                return False  # the next word would have fitted on this line
    return total - 1 > _WRAP_WIDTH


def _unwrap(lines: List[str], node_id: str) -> str:
    """The wrapped name; taken from the node id when the id is the name
    (callgrind) or the name followed by ``:module`` (perf)."""
    wanted = "".join("".join(line.split()) for line in lines)
    pos = 0
    for end, ch in enumerate(node_id):
        if ch.isspace():
            continue
        if pos == len(wanted):
            return node_id[:end].rstrip() if ch == ":" else " ".join(lines)
        if ch != wanted[pos]:
            return " ".join(lines)
        pos += 1
    return node_id if pos == len(wanted) else " ".join(lines)


# ------------------------------------------------------------- edge labels
def edge_calls(labels: Sequence[Optional[str]]) -> np.ndarray:
    """The call count of every edge label (NaN where it has none).

    Examples
    --------
    >>> edge_calls([r"97.94%\\n1×", "402816×", "12.00%", None]).tolist()
    [1.0, 402816.0, nan, nan]
    """
    texts = ["" if lab is None else lab for lab in labels]
    joined = "\n".join(texts)
    if "\\\\" not in joined and joined.count("\n") == len(texts) - 1:
        found = re.findall(r"^(?:[^\n]*\\n)?(?:(\d+)\u00d7)?[^\n]*$", joined, re.M)
        if len(found) == len(texts):
            return np.array([f or "nan" for f in found], dtype=float)
    out = np.full(len(texts), NAN)
    for k, text in enumerate(texts):
        for line in label_lines(text):
            m = _COUNT.match(line.strip())
            if m:
                out[k] = float(m.group(1))
    return out
