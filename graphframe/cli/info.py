"""What ``graphframe info`` prints: format, graph, rows, metrics, columns, metadata."""

from __future__ import annotations

from typing import Optional

import numpy as np

import graphframe_readers

from ..io import archive, dispatch
from ..render.unattributed import percent, unattributed_share, unattributed_totals
from .common import open_profile, refuse_empty


def info(path: str, format: Optional[str] = None, width: int = 100,
         progress: bool = False, options: Optional[list] = None) -> str:
    """What ``graphframe info`` prints: format, graph, rows, metrics, columns, metadata."""
    refuse_empty(path)
    kind = format or dispatch.sniff(path)
    if kind == dispatch.ARCHIVE:
        manifest = archive.read_manifest(path)
        kind = f"graphframe archive, format version {manifest['version']} " \
               f"(written by {manifest.get('writer', '?')})"
    else:
        kind = f"{kind} ({graphframe_readers.format_info(kind).description})"
    gf = open_profile(path, format, progress=progress, options=options)
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
    left_out = []   # records the reader left out of the tree (Caliper: no_path="drop")
    for metric, total in unattributed_totals(gf.metadata).items():
        share = unattributed_share(gf, metric)
        left_out.append(f"{metric} {total:.6g}" + (f" ({percent(share[1])})" if share else ""))
    if left_out:
        lines.append(("outside", "; ".join(left_out) + ": outside every annotated region, "
                                 "not in the tree (no_path=keep shows them)"))
    text = "".join(f"{k + ':':11}{v}\n" for k, v in lines)
    text += "metadata:" + ("\n" if gf.metadata else " none\n")
    for key, value in gf.metadata.items():
        shown = repr(value) if not isinstance(value, str) else value
        if len(shown) > width:
            shown = shown[:width - 3] + "..."
        text += f"  {key}: {shown}\n"
    return text
