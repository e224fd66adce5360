"""What ``graphframe diff``, ``convert`` and ``info`` do (text in, text out).

The CLI module parses arguments and looks at the terminal; these functions
take plain values and return the text to print, so they are easy to test.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import readers

from ..io import archive, dispatch
from ..diffing import format_changes, ranked_changes, regressions
from ..diffing.core import diff
from ..diffing.table import resolve_metric
from ..errors import GraphframeError, MetricError
from ..io.json.export import literal_json
from ..graphframe import GraphFrame

#: Exit status when ``--fail-above`` finds a regression (1 = error, 2 = usage).
EXIT_REGRESSION = 3

#: What ``--fail-above`` can test: a node's inclusive or its exclusive value.
FAIL_KINDS = ("inclusive", "exclusive")


def open_profile(path: str, format: Optional[str] = None, progress: bool = False) -> GraphFrame:
    """A GraphFrame from anything :func:`graphframe.read` reads (saved archives included).

    With ``progress`` a bar is drawn on stderr while the input is read (tqdm
    when it is installed, else a text bar; see :mod:`readers.progress`).
    """
    return GraphFrame.read(path, format=format, **({"progress": True} if progress else {}))


# ------------------------------------------------------------------- diff
@dataclass
class DiffReport:
    """Text to print, a message for stderr and the exit status."""

    text: str
    error: str = ""
    status: int = 0


def diff_report(before_path: str, after_path: str, metric: Optional[str] = None,
                threshold: float = 1.0, top: int = 10, fail_above: Optional[float] = None,
                by: str = "path", normalize: bool = False, aggregate: str = "mean",
                rank: Optional[int] = None, depth: int = 10000, tree: bool = True,
                color: bool = False, unicode: bool = True, precision: int = 3,
                progress: bool = False, fail_kind: str = "inclusive") -> DiffReport:
    """Everything ``graphframe diff`` prints, and its exit status.

    The ranked tables show the metric's inclusive form, then its exclusive
    form; an inclusive form the profiles lack is computed from the exclusive
    values (see :func:`graphframe.diff`). ``fail_kind`` says which form
    ``fail_above`` tests.
    """
    if isinstance(top, bool) or int(top) != top or top < 1:
        raise UsageError(f"--top {top}: give a number of rows, 1 or more")
    if fail_kind not in FAIL_KINDS:
        raise UsageError(f"--fail-kind {fail_kind}: choose {' or '.join(FAIL_KINDS)}")
    before = open_profile(before_path, progress=progress)
    after = open_profile(after_path, progress=progress)
    d = diff(before, after, metric, by=by, normalize=normalize, threshold=threshold,
             aggregate=aggregate, rank=rank)
    info = d.metadata["diff"]
    inc = resolve_metric(d, metric, "inclusive")
    exc = _exclusive_form(d, metric)
    arrow = "→" if unicode else "->"
    how = f"rank {rank}" if rank is not None else f"{aggregate} over ranks"
    unit = " (percent of total)" if normalize else ""
    parts = [f"graphframe diff: {before_path} {arrow} {after_path}\n",
             f"metric {_label(d, inc, exc)}{unit}, {how}, matched by "
             f"{'call path' if by == 'path' else 'function name'}, "
             f"noise threshold {threshold:g}% of the before total\n\n"]
    parts.append(format_changes(ranked_changes(d, inc, "as-is", top),
                                f"Largest changes, {info['kinds'][inc]} ({inc}):",
                                precision) + "\n")
    if exc is not None and exc != inc:
        parts.append(format_changes(ranked_changes(d, exc, "as-is", top),
                                    f"Largest changes, exclusive ({exc}):", precision) + "\n")
    if tree:
        parts.append(f"Changed call paths ({inc}, delta and before {arrow} after):\n")
        parts.append(d.diff_tree(inc, kind="as-is", depth=depth, changed_only=True,
                                 color=color, unicode=unicode, precision=precision,
                                 render_header=False) or "  (none)\n")
    report = DiffReport("".join(parts))
    if fail_above is not None:
        bad = regressions(d, fail_above, metric, kind=fail_kind)
        tested = bad.attrs["metric"]
        if len(bad):
            names = ", ".join(str(n) for n in bad["name"].tolist()[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            report.error = (f"graphframe: {len(bad)} node(s) regressed by more than "
                            f"{fail_above:g}% ({fail_kind} {tested}): {names}{more}\n")
            report.status = EXIT_REGRESSION
        else:
            report.text += (f"\nNo node regressed by more than {fail_above:g}% "
                            f"({fail_kind} {tested}).\n")
    return report


def _label(d: GraphFrame, inc: Any, exc: Any) -> str:
    """``time (inc)``, with a note when graphframe computed it from ``time``."""
    if inc in d.metadata["diff"]["computed_inclusive"] and exc is not None:
        return f"{inc} (summed from {exc}: the profiles have no inclusive values)"
    return str(inc)


def _exclusive_form(d: GraphFrame, metric: Optional[str]) -> Optional[str]:
    try:
        return resolve_metric(d, metric, "exclusive")
    except MetricError:
        return None


# ---------------------------------------------------------------- convert
@dataclass(frozen=True)
class Writer:
    """An output format of ``graphframe convert``."""

    suffixes: Tuple[str, ...]
    binary: bool
    write: Callable[..., Any]
    description: str


WRITERS: Dict[str, Writer] = {
    "graphframe": Writer((".gfz",), True, lambda gf, o: None,
                         "graphframe archive (Parquet tables; graphframe.load reads it)"),
    "json": Writer((".json",), False, lambda gf, o: gf.to_json(),
                   "Hatchet's to_json layout (GraphFrame.from_json reads it)"),
    "literal": Writer((".literal.json",), False,
                      lambda gf, o: literal_json(gf.to_literal(rank=o["rank"],
                                                               thread=o["thread"])),
                      "Hatchet's literal (nested dicts, one rank)"),
    "dot": Writer((".dot", ".gv"), False,
                  lambda gf, o: gf.to_dot(o["metric"], rank=o["rank"], thread=o["thread"],
                                          aggregate=o["aggregate"]),
                  "Graphviz DOT, Hatchet's to_dot layout"),
    "folded": Writer((".folded", ".collapsed"), False,
                     lambda gf, o: gf.to_flamegraph(o["metric"], rank=o["rank"],
                                                    thread=o["thread"], separator=o["separator"],
                                                    aggregate=o["aggregate"], scale=o["scale"]),
                     "folded stacks for flame graphs (flamegraph.pl, inferno, speedscope)"),
    "speedscope": Writer((".speedscope.json",), False,
                         lambda gf, o: gf.to_speedscope(o["metric"], rank=o["rank"],
                                                        thread=o["thread"],
                                                        aggregate=o["aggregate"]),
                         "speedscope JSON (www.speedscope.app)"),
}


class UsageError(GraphframeError):
    """A command line that cannot be carried out as written (exit status 2)."""


def output_format(path: str, to: Optional[str]) -> str:
    """The writer for ``path``: ``to`` if given, else the longest matching suffix.

    Examples
    --------
    >>> output_format("run.speedscope.json", None), output_format("x.json", None)
    ('speedscope', 'json')
    >>> output_format("out.txt", "folded")
    'folded'
    """
    if to is not None:
        return to
    name = os.path.basename(path).lower()
    matches = [(len(s), fmt) for fmt, w in WRITERS.items() for s in w.suffixes if name.endswith(s)]
    if not matches:
        raise UsageError(f"cannot tell the output format from {path!r}; use --to with one of "
                         f"{', '.join(WRITERS)}")
    return max(matches)[1]


def convert(in_path: str, out_path: str, to: Optional[str] = None,
            in_format: Optional[str] = None, progress: bool = False,
            **options: Any) -> Optional[str]:
    """Convert a profile; returns the text when ``out_path`` is ``-`` (stdout)."""
    fmt = output_format(out_path, to)
    writer = WRITERS[fmt]
    if out_path == "-" and writer.binary:
        raise UsageError(f"the {fmt} format is binary and cannot be written to stdout")
    gf = open_profile(in_path, in_format, progress=progress)
    opts = dict(metric=None, rank=None, thread=None, aggregate=None, separator="; ", scale=1.0)
    opts.update({k: v for k, v in options.items() if v is not None})
    if fmt == "graphframe":
        gf.save(out_path)
        return None
    text = writer.write(gf, opts)
    if out_path == "-":
        return text
    try:
        Path(out_path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GraphframeError(f"{out_path}: cannot write: {exc.strerror}") from exc
    return None


# ------------------------------------------------------------------- info
def info(path: str, format: Optional[str] = None, width: int = 100,
         progress: bool = False) -> str:
    """What ``graphframe info`` prints: format, graph, rows, metrics, columns, metadata."""
    kind = format or dispatch.sniff(path)
    if kind == dispatch.ARCHIVE:
        manifest = archive.read_manifest(path)
        kind = f"graphframe archive, format version {manifest['version']} " \
               f"(written by {manifest.get('writer', '?')})"
    else:
        kind = f"{kind} ({readers.format_info(kind).description})"
    gf = open_profile(path, format, progress=progress)
    g, df = gf.graph, gf.dataframe
    shape = "tree" if g.is_tree() else ("forest" if g.is_forest else "graph with shared nodes")
    lines = [("path", str(path)), ("format", kind),
             ("graph", f"{g.num_nodes} nodes, {g.num_edges} edges, {len(g.root_ids)} "
                       f"root{'s' if len(g.root_ids) != 1 else ''} ({shape}), "
                       f"max depth {int(g.depth.max()) if g.num_nodes else 0}"),
             ("rows", f"{len(df)} (index: {', '.join(map(str, df.index.names))})")]
    for level in df.index.names[1:]:
        values = np.sort(df.index.unique(level=level).to_numpy())
        span = f" ({values[0]}..{values[-1]})" if len(values) else ""
        lines.append((f"{level}s" if not str(level).endswith("s") else str(level),
                      f"{len(values)}{span}"))
    pairs = ", ".join(f"{e} -> {i}" for e, i in gf.inclusive_of.items()) or "none"
    lines += [("exclusive", ", ".join(map(str, gf.exc_metrics)) or "none"),
              ("inclusive", ", ".join(map(str, gf.inc_metrics)) or "none"),
              ("pairs", pairs), ("default", str(gf.default_metric))]
    others = [str(c) for c in df.columns if c not in gf.show_metric_columns()]
    lines.append(("columns", ", ".join(others) or "none"))
    text = "".join(f"{k + ':':11}{v}\n" for k, v in lines)
    text += "metadata:" + ("\n" if gf.metadata else " none\n")
    for key, value in gf.metadata.items():
        shown = repr(value) if not isinstance(value, str) else value
        if len(shown) > width:
            shown = shown[:width - 3] + "..."
        text += f"  {key}: {shown}\n"
    return text


def writer_help() -> List[str]:
    """One line per output format (for ``--help``)."""
    return [f"{name} ({', '.join(w.suffixes)}): {w.description}" for name, w in WRITERS.items()]
