"""Old-layout databases without metric files: the ``<M n= v=/>`` summary values of experiment.xml.

``hpcprof`` (without ``--metric-db``) writes no per-rank files; each node of
``experiment.xml`` then carries its values summed over ranks and threads, for
the metrics of ``MetricTable`` (``CPUTIME (usec):Sum (I)``, ...). They are read
as a summary profile (index ``node``): ``:Sum`` statistics are additive metrics
named like the metric-db ones (``time``, ``time (inc)``), other statistics
(``:Mean``, ``:Min``...) are non-additive columns under their own names.
Values are printed with 6 significant digits in the file, so they are rounded;
an exclusive value (inclusive minus the children's inclusive values) that the
rounding alone makes negative is 0 (:func:`graphframe_readers.hpctoolkit.common.own_cost`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import numpy as np

from ...errors import ReadError
from ...profile import RawProfile
from ..common import (SUMMARY_ERROR, assemble, is_inclusive_name, metric_display_name,
                      metric_units, own_cost, row_index, select_names)
from .xmltree import CallingContextTree


def summary_profile(directory: Path, xml_path: Path, cct: CallingContextTree,
                    nodes: Dict[str, Any], metrics, metadata: Dict[str, Any],
                    node_columns) -> RawProfile:
    """A RawProfile of the summary values recorded in ``cct.summary``."""
    count = len(nodes["parent"])
    owner = np.asarray(cct.summary[0], dtype=np.int64)
    try:
        ident = np.array(cct.summary[1], dtype=object).astype(np.int64)
        value = np.array(cct.summary[2], dtype=object).astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ReadError(xml_path, "an <M> element has a non-numeric n or v",
                        position="SecCallPathProfileData",
                        expected='<M n="metric id" v="number"/>') from exc
    except OverflowError as exc:
        raise ReadError(xml_path, "an <M> element has a metric id out of range",
                        position="SecCallPathProfileData",
                        expected="metric ids that fit in 64 bits") from exc
    declared = _declared(cct, xml_path)
    by_id = {d["ident"]: d for d in declared}
    unknown = sorted(set(ident.tolist()) - set(by_id))
    if unknown:
        raise ReadError(xml_path, f"<M> values refer to metric id {unknown[0]}, which MetricTable "
                        "does not declare", position="SecCallPathProfileData",
                        expected="metric ids of MetricTable")
    columns: Dict[str, np.ndarray] = {}
    for d in declared:
        keep = ident == d["ident"]
        columns[d["name"]] = np.bincount(owner[keep], weights=value[keep], minlength=count)
    parent = nodes["parent"]
    child = np.flatnonzero(parent >= 0)
    for d in declared:  # exclusive sums: each node's own cost, as for metric-db files
        if d["additive"] and not d["inclusive"] and d["partner"] in columns:
            inc = columns[d["partner"]]
            columns[d["name"]] = own_cost(inc, child, parent[child], SUMMARY_ERROR)
    additive = [d["name"] for d in declared if d["additive"]]
    aliases = {d["file_name"]: d["name"] for d in declared}
    chosen = select_names(directory, [d["name"] for d in declared], metrics, aliases)
    exc = [d["name"] for d in declared if d["name"] in chosen and d["name"] in additive
           and not d["inclusive"]]
    inc = [d["name"] for d in declared if d["name"] in chosen and d["name"] in additive
           and d["inclusive"]]
    pairs = {d["name"]: d["partner"] for d in declared if d["name"] in exc and d["partner"] in inc}
    rows = {"node": row_index(count, 1), **{c: columns[c] for c in chosen}}
    default = "time" if "time" in exc else (exc[0] if exc else (inc[0] if inc else None))
    meta = dict(metadata, metric_files="summary values in experiment.xml", profiles=0,
                units=metric_units({d["name"]: d["file_name"] for d in declared
                                    if d["name"] in chosen}))
    return assemble(directory, parent, nodes["frames"], nodes["columns"], rows, (), exc=exc,
                    inc=inc, pairs=pairs, default=default, metadata=meta,
                    order=chosen + list(node_columns))


def _declared(cct: CallingContextTree, xml_path: Path) -> List[Dict[str, Any]]:
    out, by_ident = [], {}
    for attrs in cct.metrics:
        try:
            ident = int(attrs.get("i", ""))
        except ValueError as exc:
            raise ReadError(xml_path, f"<Metric n={attrs.get('n')!r}> has a non-integer id",
                            position="MetricTable", expected="an integer i") from exc
        file_name = attrs.get("n", f"metric {ident}")
        additive = ":Sum" in file_name or ":" not in file_name
        base = file_name.replace(":Sum", "") if additive else file_name
        kind = attrs.get("t")
        inclusive = kind == "inclusive" if kind in ("inclusive", "exclusive") \
            else is_inclusive_name(file_name)
        d = {"ident": ident, "file_name": file_name, "additive": additive, "inclusive": inclusive,
             "name": metric_display_name(base) if additive else file_name,
             "partner_ident": attrs.get("partner"), "partner": None}
        out.append(d)
        by_ident[str(ident)] = d
    for d in out:
        partner = by_ident.get(d["partner_ident"] or "")
        if partner is not None and partner["inclusive"] != d["inclusive"]:
            d["partner"] = partner["name"]
    names = [d["name"] for d in out]
    if len(set(names)) != len(names):
        raise ReadError(xml_path, "two MetricTable entries have the same name",
                        position="MetricTable", expected="distinct metric names")
    return out
