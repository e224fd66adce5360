"""What ``graphframe info`` prints, for every kind of input.

* one profile, trace or archive: format, graph, rows, metrics, columns, metadata
  (a trace is described by its calling-context tree, with the trace format);
* several profiles (a folder that is not one profile, an Ensemble archive, a
  Thicket document): the profiles found by format, the metadata keys and the
  node count of their union.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from ..io import archive
from ..io.resolve import ARCHIVE, FOLDER, Resolved, member_summary, members, resolve
from ..io.runs import NotOneRunError
from .common import ensemble_reader_options, open_profile, refuse_empty
from .mono import mono_info
from ..render.unattributed import percent, unattributed_share, unattributed_totals


def info(path: str, format: Optional[str] = None, width: int = 100,
         progress: bool = False, options: Optional[list] = None) -> str:
    """What ``graphframe info`` prints (see the module docs)."""
    refuse_empty(path)
    what = resolve(path, format)
    if what.kind == "ensemble":
        return ensemble_info(path, what, progress=progress, options=options)
    try:
        gf = open_profile(path, format, progress=progress, options=options)
    except NotOneRunError:  # a folder of runs, not the ranks of one run: an ensemble
        runs = Resolved(path, "ensemble", FOLDER, tuple(members(path)))
        return ensemble_info(path, runs, progress=progress, options=options)
    text = profile_info(path, what, gf, width)
    if what.format.startswith("mono-mlpd"):   # issue 28: the log's header and summary sections
        text += mono_info(path)
    return text


def _format_line(path: str, what: Resolved) -> str:
    if what.format == ARCHIVE:
        manifest = archive.read_manifest(path)
        return (f"graphframe archive, format version {manifest['version']} "
                f"(written by {manifest.get('writer', '?')})")
    text = f"{what.format} ({what.info.description})"
    if what.kind == "trace":
        text += "; a trace, shown as its calling-context tree"
    return text


def profile_info(path: str, what: Resolved, gf: Any, width: int = 100) -> str:
    """The description of one GraphFrame read from ``path``."""
    g, df = gf.graph, gf.dataframe
    shape = "tree" if g.is_tree() else ("forest" if g.is_forest else "graph with shared nodes")
    lines = [("path", str(path)), ("format", _format_line(path, what)),
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
    left_out = []   # records the reader left out of the tree (Caliper: no_path="drop")
    for metric, total in unattributed_totals(gf.metadata).items():
        share = unattributed_share(gf, metric)
        left_out.append(f"{metric} {total:.6g}" + (f" ({percent(share[1])})" if share else ""))
    if left_out:
        lines.append(("outside", "; ".join(left_out) + ": outside every annotated region, "
                                 "not in the tree (no_path=keep shows them)"))
    return _lines(lines) + _metadata(gf.metadata, width)


def ensemble_info(path: str, what: Resolved, progress: bool = False,
                  options: Optional[list] = None) -> str:
    """The description of several profiles: found by format, metadata keys, union size."""
    from ..ensemble import Ensemble  # loads with its first use (fast start)

    plain, keyed = ensemble_reader_options(options or ())
    ens = Ensemble.read(path, format=None if what.format == FOLDER else what.format,
                        progress=True if progress else None, options=keyed or None,
                        on_error="skip", **plain)
    found = list(what.members) if what.members else list(ens.profiles["path"])
    lines: List[Tuple[str, str]] = [
        ("path", str(path)),
        ("format", "several profiles (an ensemble)" if what.format == FOLDER
         else f"{what.format} ({what.info.description})")]
    if what.members:
        lines.append(("found", f"{len(found)} ({member_summary(found)})"))
    lines += [("profiles", f"{len(ens.profiles)} read"
                           + (f", {len(ens.errors)} not readable" if len(ens.errors) else "")),
              ("graph", f"{ens.graph.num_nodes} nodes in the union of their call trees"),
              ("rows", f"{len(ens.dataframe)} (index: "
                       f"{', '.join(map(str, ens.dataframe.index.names))})"),
              ("metrics", ", ".join(map(str, ens.exc_metrics + ens.inc_metrics)) or "none"),
              ("metadata", ", ".join(map(str, ens.metadata.columns)) or "none")]
    text = _lines(lines)
    for _, row in ens.errors.iterrows():
        text += f"  not readable: {row.get('path')}: {row.get('error')}\n"
    text += ("read them with graphframe.Ensemble.read(path); `graphframe stats --by KEY` "
             "and `graphframe plot` draw them\n")
    return text


def _lines(lines: List[Tuple[str, str]]) -> str:
    return "".join(f"{k + ':':11}{v}\n" for k, v in lines)


def _metadata(metadata: dict, width: int) -> str:
    text = "metadata:" + ("\n" if metadata else " none\n")
    for key, value in metadata.items():
        shown = repr(value) if not isinstance(value, str) else value
        if len(shown) > width:
            shown = shown[:width - 3] + "..."
        text += f"  {key}: {shown}\n"
    return text
