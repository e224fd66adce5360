"""HPCToolkit database, current layout (HPCToolkit >= 2022.10): ``meta.db`` + ``profile.db``.

* Nodes: one per context of ``meta.db``'s context tree, plus one root per
  entry point (``main thread``, ``application thread``, ``unknown entry``);
  frame ``{"type": <entry|function|loop|line|instruction>, "name": ...}`` with
  Hatchet's names (``function: main`` unless ``label_function_nodes=False``,
  ``loop <file>:<line>``, ``line <file>:<line>``, ``<module>:<offset>``).
  GPU and OpenMP contexts (``<gpu kernel>``, ``f._omp_fn.0``...) are ordinary
  nodes whose ``type`` tells their kind; function names are kept whole.
* Metrics: every metric of ``meta.db`` (or those named in ``metrics``), named
  like the old reader: the CPU/real time metric is ``time``, others keep their
  names; ``<name> (inc)`` is the "execution" scope (inclusive) and ``<name>``
  each node's own cost: its inclusive value minus its children's, so exclusive
  values add up over a subtree to the inclusive one (profile.db also holds
  values for contexts meta.db does not list, e.g. instructions folded into
  their line; their cost lands in the nearest listed ancestor). Without an
  "execution" scope, the "function" (else "point") scope is used. Missing
  sparse values are 0.
* Rows: the summary profile (index ``node``), or with ``per_profile=True``
  every measured profile, indexed by ``rank`` and ``thread`` from the
  profiles' identifier tuples (GPU streams get thread ``500 + stream``, as
  hpcprof numbered them before); when that is ambiguous, by ``profile``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

import numpy as np

from .errors import ReadError
from .progress import Progress, ProgressArg
from .hpctoolkit_common import (assemble, level_column, row_index,
                                select_names)
from .hpctoolkit_metadb import MetaDb, read_meta_db, tree_arrays
from .hpctoolkit_profiledb import ProfileDb, identity_table
from .profile import RawProfile
from .registry import FormatInfo

TIME_METRICS = ("CPUTIME (sec)", "CPUTIME (usec)", "REALTIME (sec)", "REALTIME (usec)")
NODE_COLUMNS = ("ctx_id", "name", "type", "file", "line", "module")


def read_hpctoolkit_latest(dirname: Any, *, per_profile: bool = False,
                           metrics: Optional[Iterable[str]] = None,
                           ranks: Optional[Iterable[int]] = None,
                           label_function_nodes: bool = True,
                           progress: ProgressArg = None) -> RawProfile:
    """Read an HPCToolkit database of the current layout (``meta.db``, ``profile.db``).

    Parameters
    ----------
    dirname : path
        The database directory.
    per_profile : bool
        False: the summary profile (one row per node). True: one row per node
        and measured profile (rank/thread).
    metrics : iterable of str, optional
        Metrics to keep, by our names (``time``, ``time (inc)``) or the file's
        (``CPUTIME (sec)`` keeps both columns of that metric). Default: all.
    ranks : iterable of int, optional
        With ``per_profile``, read only the profiles of these ranks.
    label_function_nodes : bool
        Prefix function names with ``function: `` (Hatchet's default).
    progress : bool or callable, optional
        ``True`` draws a bar on stderr; a callable gets ``(done, total, what)``.
    """
    directory = Path(dirname)
    if not directory.is_dir():
        raise ReadError(directory, "not a directory" if directory.exists() else "no such directory",
                        expected="an HPCToolkit database directory")
    for name in ("meta.db", "profile.db"):
        if not (directory / name).is_file():
            raise ReadError(directory, f"the directory has no {name}",
                            expected="an HPCToolkit database (meta.db + profile.db)")
    meta = read_meta_db(directory / "meta.db", label_function_nodes)
    pdb = ProfileDb(directory / "profile.db")
    nodes = tree_arrays(meta.tree)
    if not len(nodes["ctx_id"]):
        raise ReadError(directory / "meta.db", "the context tree is empty",
                        position="context tree section", expected="at least one context")
    plan = _metric_plan(meta, per_profile)
    chosen = _choose(directory, plan, metrics)
    if per_profile:
        profiles, levels, level_values, idents = _profiles(pdb, meta, ranks, directory)
    else:
        profiles, levels, level_values, idents = [0], (), {}, None
    values, unlisted = _values(pdb, plan, chosen, nodes, profiles, directory, progress)
    frames = {"type": nodes["kind"], "name": nodes["name"]}
    columns = {"ctx_id": nodes["ctx_id"], "name": nodes["name"], "type": nodes["kind"],
               "file": nodes["file"], "line": nodes["line"], "module": nodes["module"]}
    count = len(nodes["ctx_id"])
    rows: Dict[str, Any] = {"node": row_index(count, len(profiles))}
    rows.update({k: level_column(v, count) for k, v in level_values.items()})
    rows.update(values)
    names = [c for c in chosen]
    inc = [c for c in names if plan[c]["inclusive"]]
    exc = [c for c in names if not plan[c]["inclusive"]]
    pairs = {c: plan[c]["partner"] for c in exc if plan[c]["partner"] in inc}
    default = _default_metric(inc + exc, values)
    metadata = {"format": "hpctoolkit-latest", "title": meta.title,
                "layout": "4.0 (2022 pre-release)" if meta.prerelease else "4.0",
                "profiles": idents if per_profile else None,
                "contexts_without_meta_entry": unlisted}
    return assemble(directory, nodes["parent"], frames, columns, rows, levels, exc=exc, inc=inc,
                    pairs=pairs, default=default, metadata=metadata,
                    order=names + list(NODE_COLUMNS))


def _default_metric(names: List[str], values: Dict[str, np.ndarray]) -> Optional[str]:
    """``time (inc)`` (Hatchet's default) unless it is all zero; else the first inclusive
    metric with a non-zero value."""
    ranked = sorted(names, key=lambda c: (not values[c].any(), c != "time (inc)",
                                          not c.endswith(" (inc)")))
    return ranked[0] if ranked else None


def _metric_plan(meta: MetaDb, per_profile: bool) -> Dict[str, Dict[str, Any]]:
    """Our column name -> where its values come from (metric ids) and its kind."""
    time_base = next((m.name for m in meta.metrics if m.name in TIME_METRICS), None)
    plan: Dict[str, Dict[str, Any]] = {}
    for m in meta.metrics:
        base = "time" if m.name == time_base else m.name
        if per_profile:
            ids = dict(m.scopes)
        else:
            ids = {scope: stat for scope, combine, stat in m.summaries if combine == 0}
        inc_name = f"{base} (inc)"
        if "execution" in ids:
            plan[inc_name] = {"ids": [ids["execution"]], "inclusive": True, "partner": base,
                              "file_name": m.name, "derive": False}
        if "execution" in ids:
            plan[base] = {"ids": [], "inclusive": False, "partner": inc_name,
                          "file_name": m.name, "derive": True}
        elif "function" in ids or "point" in ids:
            plan[base] = {"ids": [ids.get("function", ids.get("point"))], "inclusive": False,
                          "partner": inc_name, "file_name": m.name, "derive": False}
    return plan


def _choose(directory: Path, plan: Dict[str, Dict[str, Any]], wanted) -> List[str]:
    available = list(plan)
    if wanted is None:
        return available
    wanted = [wanted] if isinstance(wanted, str) else list(wanted)
    expanded = []
    for name in wanted:
        by_file = [c for c in available if plan[c]["file_name"] == name and name not in plan]
        expanded.extend(by_file or [name])
    return select_names(directory, available, expanded)


def _profiles(pdb: ProfileDb, meta: MetaDb, ranks, directory: Path):
    rows = identity_table(pdb, meta.id_kinds)
    if not rows:
        raise ReadError(directory / "profile.db", "the database has no per-thread profiles",
                        position="profile info section", expected="profiles besides the summary")
    keys = []
    for row in rows:
        thread = row.get("thread")
        if thread is None and "gpustream" in row:
            thread = 500 + row["gpustream"]
        keys.append((row.get("rank", 0), thread or 0))
    if ranks is not None:
        wanted = {int(r) for r in ([ranks] if isinstance(ranks, int) else ranks)}
        if not wanted:
            raise ReadError(directory, "the ranks option selects no rank", position="ranks option",
                            expected="at least one rank")
        have = sorted({k[0] for k in keys})
        missing = sorted(wanted.difference(have))
        if missing:
            raise ReadError(directory, f"rank(s) {missing} not in the database",
                            position="ranks option", expected=f"ranks among {have}")
        picked = [i for i, k in enumerate(keys) if k[0] in wanted]
    else:
        picked = list(range(len(rows)))
    profiles = [rows[i]["profile"] for i in picked]
    if len(set(keys)) < len(keys):
        return profiles, ("profile",), {"profile": np.array(profiles)}, rows
    rank = np.array([keys[i][0] for i in picked], dtype=np.int64)
    thread = np.array([keys[i][1] for i in picked], dtype=np.int64)
    if any(k[1] for k in keys):
        return profiles, ("rank", "thread"), {"rank": rank, "thread": thread}, rows
    return profiles, ("rank",), {"rank": rank}, rows


def _values(pdb: ProfileDb, plan, chosen, nodes, profiles, directory, progress):
    """Dense columns (profile-major rows) for the chosen metrics."""
    ctx_ids = nodes["ctx_id"]
    count = len(ctx_ids)
    by_id = np.argsort(ctx_ids, kind="stable")
    sorted_ids = ctx_ids[by_id]
    twice = np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])
    if len(twice):
        raise ReadError(directory / "meta.db", f"context id {int(sorted_ids[twice[0]])} appears "
                        "twice in the context tree", position="context tree section",
                        expected="unique context ids")
    needed = list(chosen)
    for name in chosen:  # derived exclusive values need their inclusive partner
        if plan[name]["derive"] and plan[name]["partner"] not in needed:
            needed.append(plan[name]["partner"])
    direct = [c for c in needed if not plan[c]["derive"]]
    id_col = {}
    for col, name in enumerate(direct):
        for mid in plan[name]["ids"]:
            id_col[mid] = col
    max_id = max(id_col, default=-1) + 1
    col_of = np.full(max(max_id, 1), -1, dtype=np.int64)
    for mid, col in id_col.items():
        col_of[mid] = col
    out = {c: np.zeros(count * len(profiles)) for c in needed}
    report = Progress(progress, len(profiles), "profiles")
    unlisted: set = set()
    width = len(direct) * count
    for b, k in enumerate(profiles):
        ctx, metric, value = pdb.values(k)
        keep = (metric < max_id) & (ctx > 0)
        ctx, metric, value = ctx[keep], metric[keep], value[keep]
        cols = col_of[metric]
        keep = cols >= 0
        ctx, cols, value = ctx[keep], cols[keep], value[keep]
        # values of contexts meta.db does not list (instruction-level contexts folded into
        # their line) are counted in their ancestors' inclusive values; note how many
        at = np.minimum(np.searchsorted(sorted_ids, ctx), count - 1)
        listed = sorted_ids[at] == ctx
        unlisted.update(np.unique(ctx[~listed]).tolist())
        flat = cols[listed] * count + by_id[at[listed]]
        block = np.bincount(flat, weights=value[listed], minlength=width).reshape(-1, count) \
            if width else np.zeros((0, count))
        for col, name in enumerate(direct):
            out[name][b * count:(b + 1) * count] = block[col]
        report.step()
    parent = nodes["parent"]
    child = np.flatnonzero(parent >= 0)
    offsets = (np.arange(len(profiles), dtype=np.int64) * count)[:, None]
    rows = (offsets + child[None, :]).ravel()
    into = (offsets + parent[child][None, :]).ravel()
    for name in needed:
        if plan[name]["derive"]:
            inc = out[plan[name]["partner"]]
            out[name] = inc - np.bincount(into, weights=inc[rows], minlength=len(inc))
    return {c: out[c] for c in chosen}, len(unlisted)


def _sniff(path: Path, head: bytes) -> bool:
    return path.is_dir() and (path / "meta.db").is_file()


FORMAT = FormatInfo(
    name="hpctoolkit-latest",
    read=read_hpctoolkit_latest,
    sniff=_sniff,
    description="HPCToolkit database, current layout (meta.db + profile.db)",
)
