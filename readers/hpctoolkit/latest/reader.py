"""HPCToolkit database, current layout (HPCToolkit >= 2022.10): ``meta.db`` + ``profile.db``.

* Nodes: one per context of ``meta.db``'s context tree, plus one root per
  entry point (``main thread``, ``application thread``, ``unknown entry``);
  frame ``{"type": <entry|function|loop|line|instruction>, "name": ...}``, named
  as the old layout names the same scopes (``main``, ``Loop@<file>:<line>``,
  ``<file>:<line>``, ``<module>:<offset>``), or with ``names="hatchet"`` as
  Hatchet does (``function: main``, ``loop <path>:<line>``, ``line <path>:<line>``).
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
* Rows: the summary profile (index ``node``), or with ``parallel_profiles_mode=True``
  every measured profile, indexed by ``rank`` and ``thread`` from the
  profiles' identifier tuples (GPU streams get thread ``500 + stream``, as
  hpcprof numbered them before); when that is ambiguous, by ``profile``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

import numpy as np

from ...errors import ArgumentError, ReadError
from ...profile import RawProfile
from ...progress import Progress, ProgressArg
from ...registry import FormatInfo
from ..common import (assemble, level_column, metric_units, narrow_int, rank_selection,
                                own_cost, row_index, select_names)
from .derived import derived_from, load_taxonomy, viewer_order
from .metadb import NAMINGS, MetaDb, read_meta_db, tree_arrays
from .profiledb import ProfileDb, identity_table
from .prune import keep_mask, prune

TIME_METRICS = ("CPUTIME (sec)", "CPUTIME (usec)", "REALTIME (sec)", "REALTIME (usec)")
NODE_COLUMNS = ("ctx_id", "name", "type", "file", "line", "module")


def read_hpctoolkit_latest(dirname: Any, *, parallel_profiles_mode: bool = False,
                           metric_names: Optional[Iterable[str]] = None,
                           profile_ranks: Optional[Iterable[int]] = None,
                           label_function_nodes: Optional[bool] = None,
                           names: str = "plain",
                           max_depth: Optional[int] = None,
                           min_percentage_of_application_time: Optional[float] = None,
                           min_percentage_of_parent_time: Optional[float] = None,
                           progress: ProgressArg = None) -> RawProfile:
    """Read an HPCToolkit database of the current layout (``meta.db``, ``profile.db``).

    Parameters
    ----------
    dirname : path
        The database directory.
    parallel_profiles_mode : bool
        False: the summary profile (one row per node). True: one row per node
        and measured profile (rank/thread).
    metric_names : iterable of str, optional
        Metrics to keep, by our names (``time``, ``time (inc)``) or the file's
        (``CPUTIME (sec)`` keeps both columns of that metric). Default: all.
    profile_ranks : int or iterable of int, optional
        With ``parallel_profiles_mode``, read only the profiles of these
        ranks. Asking for ranks without it raises :class:`ReadError` (the
        summary profile has no ranks to select).
    label_function_nodes : bool, optional
        Prefix function names with ``function: `` (default: with ``names="hatchet"``,
        as Hatchet does).
    names : {"plain", "hatchet"}
        ``"plain"`` (default): nodes are named as HPCToolkit's old layout names
        them (``main``, ``Loop@a.c:5``, ``a.c:6``), their kind being the frame's
        ``type``, so the two layouts of one program match; ``"hatchet"``:
        Hatchet's ``from_hpctoolkit_latest`` names (``function: main``,
        ``loop /src/a.c:5``, ``line /src/a.c:6``), which
        ``GraphFrame.from_hpctoolkit_latest`` and Thicket's constructor use.
    max_depth : int, optional
        Keep only nodes at most this deep (entry points are depth 0), as
        Hatchet does. The cost of a cut subtree stays in its kept ancestor's
        exclusive value.
    min_percentage_of_application_time : float, optional
        Keep only nodes whose summary inclusive ``time`` is at least this
        percentage of the main thread's (Hatchet's meaning); a node's subtree
        goes with it. Entry points are always kept.
    min_percentage_of_parent_time : float, optional
        Keep only nodes whose summary inclusive ``time`` is at least this
        percentage of their parent's (Hatchet 2024.1.3's option); a node's
        subtree goes with it. Entry points are always kept.
    progress : bool or callable, optional
        ``True`` draws a bar on stderr; a callable gets ``(done, total, what)``.

    Notes
    -----
    The keyword names are Hatchet's (``GraphFrame.from_hpctoolkit_latest``),
    so ``graphframe.read(db, parallel_profiles_mode=True)`` and the
    constructor take the same options.

    Examples
    --------
    >>> import tempfile
    >>> from graphframe_readers.testing import write_hpctoolkit_latest
    >>> from graphframe_readers.testing import sample_profile
    >>> db = write_hpctoolkit_latest(sample_profile(), tempfile.mkdtemp())
    >>> raw = read_hpctoolkit_latest(db)
    >>> raw.index_levels, raw.inc_metrics, raw.node_columns["type"].tolist()[:4]
    ((), ('time (inc)',), ['entry', 'function', 'loop', 'function'])
    >>> raw.nodes["name"].tolist()[:3]
    ['main thread', 'main', 'Loop@a.c:5']
    >>> read_hpctoolkit_latest(db, names="hatchet").nodes["name"].tolist()[:3]
    ['main thread', 'function: main', 'loop a.c:5']
    >>> raw = read_hpctoolkit_latest(db, parallel_profiles_mode=True, profile_ranks=[1],
    ...                              max_depth=2)
    >>> raw.index_levels, len(raw.nodes), sorted(set(raw.metrics["rank"]))
    (('rank', 'thread'), 5, [1])
    """
    directory = Path(dirname)
    if not directory.is_dir():
        raise ReadError(directory, "not a directory" if directory.exists() else "no such directory",
                        expected="an HPCToolkit database directory")
    for name in ("meta.db", "profile.db"):
        if not (directory / name).is_file():
            raise ReadError(directory, f"the directory has no {name}",
                            expected="an HPCToolkit database (meta.db + profile.db)")
    wanted_ranks = rank_selection(directory, profile_ranks, option="profile_ranks")
    if wanted_ranks is not None and not parallel_profiles_mode:
        raise ReadError(directory, f"ranks {wanted_ranks} were selected but the summary profile "
                        "(sums over every rank) was asked for", position="profile_ranks option",
                        expected="parallel_profiles_mode=True with profile_ranks")
    if names not in NAMINGS:
        raise ArgumentError(f"names={names!r}: use one of {', '.join(NAMINGS)}")
    if label_function_nodes is None:
        label_function_nodes = names == "hatchet"
    meta = read_meta_db(directory / "meta.db", bool(label_function_nodes), names)
    pdb = ProfileDb(directory / "profile.db")
    nodes = tree_arrays(meta.tree)
    if not len(nodes["ctx_id"]):
        raise ReadError(directory / "meta.db", "the context tree is empty",
                        position="context tree section", expected="at least one context")
    all_ids = nodes["ctx_id"]
    _check_unique_contexts(all_ids, directory)
    if max_depth is not None or min_percentage_of_application_time is not None or \
            min_percentage_of_parent_time is not None:
        nodes = prune(nodes, keep_mask(directory, meta, pdb, nodes, max_depth,
                                       min_percentage_of_application_time,
                                       min_percentage_of_parent_time))
    plan = _metric_plan(meta, parallel_profiles_mode)
    chosen = _choose(directory, plan, metric_names)
    if parallel_profiles_mode:
        profiles, levels, level_values, idents = _profiles(pdb, meta, wanted_ranks, directory)
    else:
        profiles, levels, level_values, idents = [0], (), {}, None
    values = _values(pdb, plan, chosen, nodes, profiles, progress)
    unlisted = _unlisted_contexts(pdb, all_ids, profiles)
    frames = {"type": nodes["kind"], "name": nodes["name"]}
    columns = {"ctx_id": narrow_int(nodes["ctx_id"]), "name": nodes["name"],
               "type": nodes["type"], "file": nodes["file"], "line": narrow_int(nodes["line"]),
               "module": nodes["module"]}
    count = len(nodes["ctx_id"])
    rows: Dict[str, Any] = {"node": row_index(count, len(profiles))}
    rows.update({k: level_column(v, count) for k, v in level_values.items()})
    rows.update(values)
    names = [c for c in chosen]
    inc = [c for c in names if plan[c]["inclusive"]]
    exc = [c for c in names if not plan[c]["inclusive"]]
    pairs = {c: plan[c]["partner"] for c in exc if plan[c]["partner"] in inc}
    taxonomy, problems = load_taxonomy(directory)
    default = _default_metric(inc + exc, values, _shown_first(plan, viewer_order(taxonomy)))
    metadata = {"format": "hpctoolkit-latest", "title": meta.title,
                "layout": "4.0 (2022 pre-release)" if meta.prerelease else "4.0",
                "profiles": idents if parallel_profiles_mode else None,
                "contexts_without_meta_entry": unlisted,
                "units": metric_units({c: plan[c]["file_name"] for c in names})}
    metadata.update(derived_from(taxonomy, problems))
    return assemble(directory, nodes["parent"], frames, columns, rows, levels, exc=exc, inc=inc,
                    pairs=pairs, default=default, metadata=metadata,
                    order=names + list(NODE_COLUMNS))


def _check_unique_contexts(ctx_ids: np.ndarray, directory: Path) -> None:
    sorted_ids = np.sort(ctx_ids, kind="stable")
    twice = np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])
    if len(twice):
        raise ReadError(directory / "meta.db", f"context id {int(sorted_ids[twice[0]])} appears "
                        "twice in the context tree", position="context tree section",
                        expected="unique context ids")


def _default_metric(names: List[str], values: Dict[str, np.ndarray],
                    preferred: List[str]) -> Optional[str]:
    """The metric shown by default: ``time (inc)`` (Hatchet's default; CPU or real time)
    unless it is all zero, else the first of ``preferred`` (hpcviewer's column order)
    with a value, else the first inclusive metric with a value; never an all-zero
    column when another has values."""
    live = [c for c in names if values[c].any()]
    for name in ["time (inc)"] + preferred:
        if name in live:
            return name
    ranked = sorted(names, key=lambda c: (c not in live, not c.endswith(" (inc)")))
    return ranked[0] if ranked else None


def _shown_first(plan: Dict[str, Dict[str, Any]], order: List[str]) -> List[str]:
    """Our column names of the metrics of ``order`` (file names), inclusive form first."""
    by_file: Dict[str, List[str]] = {}
    for column, spec in plan.items():
        by_file.setdefault(spec["file_name"], []).append(column)
    out = []
    for name in order:
        columns = by_file.get(name, [])
        out += [c for c in columns if plan[c]["inclusive"]] + \
            [c for c in columns if not plan[c]["inclusive"]]
    return out


def _metric_plan(meta: MetaDb, parallel_profiles_mode: bool) -> Dict[str, Dict[str, Any]]:
    """Our column name -> where its values come from (metric ids) and its kind."""
    time_base = next((m.name for m in meta.metrics if m.name in TIME_METRICS), None)
    plan: Dict[str, Dict[str, Any]] = {}
    for m in meta.metrics:
        base = "time" if m.name == time_base else m.name
        if parallel_profiles_mode:
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
    return select_names(directory, available, expanded, option="metric_names")


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
        wanted = set(ranks)
        have = sorted({k[0] for k in keys})
        missing = sorted(wanted.difference(have))
        if missing:
            raise ReadError(directory, f"rank(s) {missing} not in the database",
                            position="profile_ranks option", expected=f"ranks among {have}")
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


def _values(pdb: ProfileDb, plan, chosen, nodes, profiles, progress):
    """Dense columns (profile-major rows) for the chosen metrics.

    Values of contexts that are not nodes (instruction contexts meta.db does
    not list, or pruned ones) are left out: inclusive values are read
    directly, so their cost is in their ancestors' already.
    """
    ctx_ids = nodes["ctx_id"]
    count = len(ctx_ids)
    by_id = np.argsort(ctx_ids, kind="stable")
    sorted_ids = ctx_ids[by_id]
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
    width = len(direct) * count
    for b, k in enumerate(profiles):
        ctx, metric, value = pdb.values(k)
        keep = (metric < max_id) & (ctx > 0)
        ctx, metric, value = ctx[keep], metric[keep], value[keep]
        cols = col_of[metric]
        keep = cols >= 0
        ctx, cols, value = ctx[keep], cols[keep], value[keep]
        at = np.minimum(np.searchsorted(sorted_ids, ctx), count - 1)
        listed = sorted_ids[at] == ctx
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
            out[name] = own_cost(inc, rows, into)
    return {c: out[c] for c in chosen}


def _unlisted_contexts(pdb: ProfileDb, ctx_ids: np.ndarray, profiles: List[int]) -> int:
    """How many contexts of the read profiles have values but no meta.db entry (instruction
    contexts hpcprof folded into their line: their cost is in their ancestors')."""
    known = np.sort(ctx_ids)
    seen = [np.unique(pdb.context_ids(k)) for k in profiles]
    ids = np.unique(np.concatenate(seen)) if seen else np.zeros(0, np.int64)
    ids = ids[ids > 0]
    at = np.minimum(np.searchsorted(known, ids), len(known) - 1)
    return int(np.count_nonzero(known[at] != ids))


def _sniff(path: Path, head: bytes) -> bool:
    return path.is_dir() and (path / "meta.db").is_file()


FORMAT = FormatInfo(
    name="hpctoolkit-latest",
    read=read_hpctoolkit_latest,
    sniff=_sniff,
    description="HPCToolkit database, current layout (meta.db + profile.db)",
    markers=("meta.db",),
)
