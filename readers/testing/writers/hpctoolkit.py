"""Write HPCToolkit databases from a RawProfile (for tests and benchmarks).

* :func:`write_hpctoolkit`: the old layout, ``experiment.xml`` plus one
  ``*.metric-db`` file per (rank, thread) as hpcprof-mpi writes them, or all
  of them packed into one ``experiment-1.mdb`` (``packed=True``, hpcprof 2020).
* :func:`write_example_database`: the small database of HATCHET_SPEC.md §4.1.
* The current layout (meta.db/profile.db) is in :mod:`graphframe_readers.testing.writers.hpctoolkit_latest`.

Node kinds come from the frame ``type``: ``loop`` -> ``<L>``, ``statement`` ->
``<S>``, anything else -> a procedure frame ``<PF>``; a procedure below another
node is written inside a call site ``<C>`` (line 0, so names stay unprefixed).
Metric values follow HPCToolkit's conventions: the inclusive column holds the
subtree sums and the exclusive column of a procedure or loop also counts the
statements and loops lexically inside it (what hpcprof writes). Metric ``time``
is written as ``CPUTIME (usec) (E)``/``(I)``, any other ``X`` as ``X (E)``/``X (I)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple
from xml.sax.saxutils import quoteattr

import numpy as np
import pandas as pd

from ...hpctoolkit.experiment.metricdb import MAGIC

LEXICAL = ("loop", "statement")


def write_hpctoolkit(raw: Any, directory: Any, *, program: str = "app", packed: bool = False,
                     with_summary: bool = True) -> Path:
    """Write ``raw`` as an old-layout HPCToolkit database in ``directory``; return the path.

    ``raw`` is a :class:`graphframe_readers.RawProfile` whose index levels are ``rank``
    and optionally ``thread``. ``with_summary`` adds the XML's ``<M>`` summary
    values (rank-summed inclusive/exclusive), as hpcprof does.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tree = _Tree(raw)
    metrics = _metric_pairs(raw)
    blocks, values = _dense_values(raw, tree, metrics)  # values: (blocks, nodes, 2*pairs)
    xml_ids, order = tree.xml_ids()
    n_ids = int(xml_ids.max())
    summary = values.sum(axis=0) if with_summary else None
    (directory / "experiment.xml").write_text(
        _xml_text(tree, metrics, xml_ids, order, summary, program), encoding="utf-8")
    images = []
    for b, (rank, thread) in enumerate(blocks):
        rows = np.zeros((n_ids, values.shape[2]), dtype=">f8")
        rows[xml_ids - 1] = values[b]
        call_sites = tree.call_site_ids(xml_ids)
        callee = np.flatnonzero(call_sites > 0)
        for k in range(len(metrics)):  # call sites: inclusive of the callee, no exclusive cost
            rows[call_sites[callee] - 1, 2 * k] = values[b][callee, 2 * k]
        header = MAGIC + b"00.10b" + np.array([n_ids, values.shape[2]], dtype=">i4").tobytes()
        images.append((rank, thread, header + rows.tobytes()))
    if packed:
        _write_mdb(directory / "experiment-1.mdb", images, any(t for _, t in blocks))
    else:
        for rank, thread, image in images:
            name = f"1.{program}-{rank:06d}-{thread:03d}-a8c00270-{160000 + rank}-0.metric-db"
            (directory / name).write_bytes(image)
    return directory


def _write_mdb(path: Path, images, threaded: bool) -> None:
    head = 8 + 16 * len(images)
    table, offset = [], head
    for rank, thread, image in images:
        table.append((rank, thread, offset))
        offset += len(image)
    kind = (1 if len({r for r, _, _ in images}) > 1 else 0) | (2 if threaded else 0)
    out = [np.array([kind, len(images)], dtype=">i4").tobytes(),
           np.array(table, dtype=[("r", ">i4"), ("t", ">i4"), ("o", ">i8")]).tobytes()]
    out += [image for _, _, image in images]
    out.append(np.array([0xFFFFFFFFDEADF00D], dtype=">u8").tobytes())
    path.write_bytes(b"".join(out))


class _Tree:
    """The RawProfile's nodes as positions with children lists and kinds."""

    def __init__(self, raw: Any) -> None:
        nodes = raw.nodes.reset_index(drop=True)
        ids = nodes["node"].to_numpy(dtype=np.int64)
        order = np.argsort(ids, kind="stable")
        pos_of = dict(zip(ids[order].tolist(), order.tolist()))
        self.ids = ids
        self.pos_of = pos_of
        self.parent = np.array([pos_of.get(p, -1) for p in nodes["parent"].tolist()], dtype=np.int64)
        n = len(ids)
        self.frames = nodes
        self.kind = np.array([_kind(t) for t in _column(nodes, "type", n)], dtype=object)
        self.names = _column(nodes, "name", n)
        self.files = _column(nodes, "file", n)
        self.lines = _column(nodes, "line", n)
        cols = raw.node_columns
        self.modules = _column(cols, "module", n) if cols is not None else [None] * n
        for attr in ("file", "line"):
            if cols is not None and attr in cols.columns:
                mine = getattr(self, attr + "s")
                setattr(self, attr + "s", [a if a is not None else b
                                           for a, b in zip(mine, _column(cols, attr, n))])
        self.children: List[List[int]] = [[] for _ in range(n)]
        for child, par in enumerate(self.parent.tolist()):
            if par >= 0:
                self.children[par].append(child)
        self.roots = [k for k in range(n) if self.parent[k] < 0]

    def preorder(self) -> List[int]:
        out, stack = [], list(reversed(self.roots))
        while stack:
            v = stack.pop()
            out.append(v)
            stack.extend(reversed(self.children[v]))
        return out

    def needs_call_site(self, v: int) -> bool:
        return self.parent[v] >= 0 and self.kind[v] == "function"

    def xml_ids(self) -> Tuple[np.ndarray, List[int]]:
        """XML ``i`` of every node (call sites take the id before their callee)."""
        order = self.preorder()
        ids = np.zeros(len(order), dtype=np.int64)
        nxt = 1
        for v in order:
            if self.needs_call_site(v):
                nxt += 1
            ids[v] = nxt
            nxt += 1
        return ids, order

    def call_site_ids(self, xml_ids: np.ndarray) -> np.ndarray:
        return np.array([xml_ids[v] - 1 if self.needs_call_site(v) else 0
                         for v in range(len(xml_ids))], dtype=np.int64)


def _kind(value: Any) -> str:
    return value if value in LEXICAL else "function"


def _column(table: Any, name: str, n: int) -> List[Any]:
    if table is None or name not in table.columns:
        return [None] * n
    return [None if _missing(v) else v for v in table[name].tolist()]


def _missing(v: Any) -> bool:
    try:
        return v is None or bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _metric_pairs(raw: Any) -> List[Tuple[str, str, str]]:
    """(exclusive column or "", inclusive column or "", base name) per written pair."""
    pairs, used = [], set()
    inclusive_of = dict(raw.inclusive_of)
    for exc in raw.exc_metrics:
        inc = inclusive_of.get(exc) or (f"{exc} (inc)" if f"{exc} (inc)" in raw.inc_metrics else "")
        pairs.append((exc, inc, exc))
        used.update([exc, inc])
    for inc in raw.inc_metrics:
        if inc not in used:
            pairs.append(("", inc, inc[:-6] if inc.endswith(" (inc)") else inc))
    return pairs


def _dense_values(raw: Any, tree: _Tree, pairs) -> Tuple[List[Tuple[int, int]], np.ndarray]:
    """Per (rank, thread): HPCToolkit inclusive and exclusive columns for every node."""
    m = raw.metrics
    ranks = m["rank"].to_numpy(dtype=np.int64) if "rank" in m.columns else np.zeros(len(m), np.int64)
    threads = m["thread"].to_numpy(dtype=np.int64) if "thread" in m.columns else np.zeros(len(m), np.int64)
    keys = sorted(set(zip(ranks.tolist(), threads.tolist()))) or [(0, 0)]
    block_of = {k: b for b, k in enumerate(keys)}
    row_block = np.array([block_of[k] for k in zip(ranks.tolist(), threads.tolist())], dtype=np.int64)
    row_node = np.array([tree.pos_of[v] for v in m["node"].tolist()], dtype=np.int64)
    n = len(tree.ids)
    out = np.zeros((len(keys), n, 2 * len(pairs)), dtype=np.float64)
    depth_order = _depth_levels(tree.parent)
    lexical = np.isin(tree.kind, LEXICAL)
    for k, (exc, inc, _) in enumerate(pairs):
        own = np.zeros((len(keys), n))
        if exc:
            np.add.at(own, (row_block, row_node), np.nan_to_num(m[exc].to_numpy(dtype=np.float64)))
        if inc:
            total = np.zeros((len(keys), n))
            np.add.at(total, (row_block, row_node), np.nan_to_num(m[inc].to_numpy(dtype=np.float64)))
        else:
            total = _sum_up(own, tree.parent, depth_order, np.ones(n, dtype=bool))
        if exc:
            hpc_exc = _sum_up(own, tree.parent, depth_order, lexical)
        else:
            hpc_exc = np.zeros_like(total)
        out[:, :, 2 * k] = total
        out[:, :, 2 * k + 1] = hpc_exc
    return keys, out


def _depth_levels(parent: np.ndarray) -> List[np.ndarray]:
    depth = np.zeros(len(parent), dtype=np.int64)
    todo = parent >= 0
    cur = parent.copy()
    while todo.any():
        depth[todo] += 1
        cur = np.where(todo, parent[np.maximum(cur, 0)], -1)
        todo = cur >= 0
    return [np.flatnonzero(depth == d) for d in range(int(depth.max()), 0, -1)]


def _sum_up(own: np.ndarray, parent: np.ndarray, levels, through: np.ndarray) -> np.ndarray:
    """Add each node's total into its parent, deepest level first, for nodes in ``through``."""
    total = own.copy()
    for level in levels:
        moving = level[through[level]]
        if len(moving):
            np.add.at(total.T, parent[moving], total.T[moving])
    return total


def _xml_text(tree: _Tree, pairs, xml_ids, order, summary, program: str) -> str:
    procs: Dict[str, int] = {}
    files: Dict[str, int] = {}
    modules: Dict[str, int] = {}

    def intern(table: Dict[str, int], key: str, base: int) -> int:
        if key not in table:
            table[key] = base + len(table)
        return table[key]

    names = _file_metric_names(pairs)
    total = 2 * len(names)
    first_id = total  # MetricTable ids follow the MetricDB ids, as hpcprof-mpi numbers them
    out: List[str] = []
    emit = out.append
    if summary is not None:  # each inclusive metric's total over the roots, as hpcprof writes it
        roots = [v for v in order if tree.parent[v] < 0]
        sums = summary[roots].sum(axis=0)
        emit("".join(f'<M n="{first_id + k}" v="{sums[k]:.6g}"/>'
                     for k in range(0, total, 2) if sums[k] != 0))
    stack: List[Tuple[int, str]] = []  # (node, closing text)
    for v in order:
        while stack and tree.parent[v] != stack[-1][0]:
            emit(stack.pop()[1])
        kind = tree.kind[v]
        line = tree.lines[v] if tree.lines[v] is not None else 0
        fname = tree.files[v] if tree.files[v] is not None else "<unknown file>"
        m = _m_text(summary, v, first_id) if summary is not None else ""
        if kind == "function":
            name = tree.names[v] if tree.names[v] is not None else "<unknown procedure>"
            pid = intern(procs, str(name), 1_000_000)
            fid = intern(files, str(fname), 2_000_000)
            lm = intern(modules, str(tree.modules[v] or program), 3_000_000)
            if tree.needs_call_site(v):
                emit(f'<C i="{xml_ids[v] - 1}" s="{pid}" l="0">{m}')
            emit(f'<PF i="{xml_ids[v]}" s="{pid}" l="{line}" lm="{lm}" f="{fid}" n="{pid}">{m}')
            close = "</PF></C>" if tree.needs_call_site(v) else "</PF>"
        elif kind == "loop":
            fid = intern(files, str(fname), 2_000_000)
            emit(f'<L i="{xml_ids[v]}" s="{xml_ids[v]}" l="{line}" f="{fid}">{m}')
            close = "</L>"
        else:
            emit(f'<S i="{xml_ids[v]}" s="{xml_ids[v]}" l="{line}">{m}')
            close = "</S>"
        stack.append((v, close))
    while stack:
        emit(stack.pop()[1])
    head = ['<?xml version="1.0"?>', '<HPCToolkitExperiment version="2.0">',
            f'<Header n={quoteattr(program)}><Info/></Header>',
            f'<SecCallPathProfile i="0" n={quoteattr(program)}>', "<SecHeader>", "<MetricTable>"]
    for k, (inc_name, exc_name) in enumerate(names):
        i = first_id + 2 * k
        head.append(f'<Metric i="{i}" n={quoteattr(_sum_name(inc_name))} v="derived-incr" '
                    f't="inclusive" partner="{i + 1}" show="1" show-percent="1"/>')
        head.append(f'<Metric i="{i + 1}" n={quoteattr(_sum_name(exc_name))} v="derived-incr" '
                    f't="exclusive" partner="{i}" show="1" show-percent="1"/>')
    head += ["</MetricTable>", "<MetricDBTable>"]
    for k, (inc_name, exc_name) in enumerate(names):
        for j, (name, kind) in enumerate(((inc_name, "inclusive"), (exc_name, "exclusive"))):
            i = 2 * k + j
            head.append(f'<MetricDB i="{i}" n={quoteattr(name)} t="{kind}" partner="{i ^ 1}" '
                        f'db-glob="*.metric-db" db-id="{i}" db-num-metrics="{total}" db-header-sz="24"/>')
    head.append("</MetricDBTable>")
    for tag, item, table in (("LoadModuleTable", "LoadModule", modules),
                             ("FileTable", "File", files), ("ProcedureTable", "Procedure", procs)):
        head.append(f"<{tag}>")
        head += [f'<{item} i="{i}" n={quoteattr(name)}/>' for name, i in table.items()]
        head.append(f"</{tag}>")
    head += ["<Info/>", "</SecHeader>", "<SecCallPathProfileData>"]
    tail = ["</SecCallPathProfileData>", "</SecCallPathProfile>", "</HPCToolkitExperiment>", ""]
    return "\n".join(head + out + tail)


def _m_text(summary: np.ndarray, v: int, first_id: int) -> str:
    row = summary[v]
    return "".join(f'<M n="{first_id + k}" v="{row[k]:.6g}"/>' for k in range(len(row))
                   if row[k] != 0)


def _sum_name(name: str) -> str:
    """hpcprof's MetricTable name of a rank sum.

    ``CPUTIME (usec) (I)`` -> ``CPUTIME (usec):Sum (I)``.
    """
    return f"{name[:-4]}:Sum{name[-4:]}"


def _file_metric_names(pairs) -> List[Tuple[str, str]]:
    out = []
    for exc, inc, base in pairs:
        if base == "time":
            out.append(("CPUTIME (usec) (I)", "CPUTIME (usec) (E)"))
        else:
            out.append((f"{base} (I)", f"{base} (E)"))
    return out


SPEC_XML = """<?xml version="1.0"?>
<HPCToolkitExperiment version="2.0">
<Header n="app"><Info/></Header>
<SecCallPathProfile i="0" n="app">
<SecHeader>
  <MetricDBTable>
    <MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" partner="1" db-glob="*.metric-db" db-id="0" db-num-metrics="2" db-header-sz="24"/>
    <MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" partner="0" db-glob="*.metric-db" db-id="1" db-num-metrics="2" db-header-sz="24"/>
  </MetricDBTable>
  <LoadModuleTable><LoadModule i="2" n="app"/></LoadModuleTable>
  <FileTable><File i="3" n="./src/app.c"/></FileTable>
  <ProcedureTable><Procedure i="7" n="main"/><Procedure i="8" n="foo"/></ProcedureTable>
</SecHeader>
<SecCallPathProfileData>
<PF i="1" s="7" l="10" lm="2" f="3" n="7">
  <C i="2" s="9" l="12">
    <PF i="3" s="8" l="30" lm="2" f="3" n="8"><S i="4" s="10" l="31"/></PF>
  </C>
  <L i="5" s="11" l="15" f="3"><S i="6" s="12" l="16"/></L>
</PF>
</SecCallPathProfileData>
</SecCallPathProfile>
</HPCToolkitExperiment>
"""

#: Inclusive/exclusive value of XML ids 1..6 in the spec's example (rank r: times r+1).
SPEC_VALUES = np.array([[10, 1], [6, 0], [6, 6], [5, 5], [3, 3], [3, 3]], dtype=np.float64)


def write_example_database(directory: Any, ranks: Sequence[int] = (0, 1)) -> Path:
    """The hand-written database of HATCHET_SPEC.md §4.1 (one metric-db file per rank)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "experiment.xml").write_text(SPEC_XML)
    for r in ranks:
        header = MAGIC + b"00.10b" + np.array([6, 2], dtype=">i4").tobytes()
        data = (SPEC_VALUES * (r + 1)).astype(">f8").tobytes()
        (directory / f"1.app-{r:06d}-000-a8c00270-{160443 + r}-0.metric-db").write_bytes(header + data)
    return directory
