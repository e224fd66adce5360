"""Write the current HPCToolkit layout (meta.db, profile.db, cct.db; format 4.0) from a RawProfile.

Nodes become contexts under one "main thread" entry point (a root whose frame
type is ``entry`` becomes that entry point): frame type ``loop`` -> lexical type
1, ``statement``/``line`` -> 2 (source line), ``instruction`` -> 3, anything
else -> 0 (function, with a Function record). Each metric ``X`` (``time`` is
written as ``CPUTIME (sec)``) gets the point, function and execution
propagation scopes with HPCToolkit's meaning (own cost, cost lexically inside
the function, subtree cost), per profile and summed in the summary profile.
Index levels ``rank``/``thread`` become identifier tuples (NODE, RANK, THREAD).
A node column ``module`` gives a function's or instruction's load module
(default ``app``); a node column ``relation`` (``lexical``, ``call``,
``inlined call``) a context's relation to its parent (default: ``call`` for
functions, ``lexical`` otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

from .hpctoolkit import _Tree, _dense_values, _metric_pairs

KINDS = ["SUMMARY", "NODE", "RANK", "THREAD", "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"]
LEXICAL = {"function": 0, "loop": 1, "statement": 2, "line": 2, "instruction": 3}
#: a node column ``relation`` (optional) sets a context's relation to its parent
RELATIONS = {"lexical": 0, "call": 1, "inlined call": 2}
SCOPES = [("point", 1, 255), ("function", 3, 0), ("execution", 2, 255)]
CTX = np.dtype([("sz", "<u8"), ("p", "<u8"), ("ctx", "<u4"), ("flags", "u1"), ("rel", "u1"),
                ("kind", "u1"), ("nflex", "u1"), ("prop", "<u2"), ("pad", "V6"),
                ("w0", "<u8"), ("w1", "<u8"), ("w2", "<u8")])


class _Blob:
    """An append-only byte buffer with aligned placement and late patching."""

    def __init__(self, size: int = 0) -> None:
        self.buf = bytearray(size)

    def align(self, n: int = 8) -> int:
        self.buf += bytes(-len(self.buf) % n)
        return len(self.buf)

    def add(self, data: bytes, align: int = 8) -> int:
        at = self.align(align)
        self.buf += data
        return at

    def string(self, text: str) -> int:
        return self.add(text.encode() + b"\0", 1)

    def put(self, at: int, fmt_values: bytes) -> None:
        self.buf[at:at + len(fmt_values)] = fmt_values


def _u(fmt: str, *values) -> bytes:
    import struct
    return struct.pack("<" + fmt, *values)


def write_hpctoolkit_latest(raw: Any, directory: Any, *, title: str = "app") -> Path:
    """Write ``raw`` as meta.db + profile.db + cct.db in ``directory``; return the path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tree = _Tree(raw)
    pairs = _metric_pairs(raw)
    blocks, values = _dense_values(raw, tree, pairs)  # (profiles, nodes, 2 * pairs): inc, hpc exc
    own = _own_values(values, tree)
    n = len(tree.ids)
    entry = [v for v in tree.roots if _type(tree, v) == "entry"]
    ctx_of = np.arange(1, n + 1, dtype=np.int64)  # context ids 1..n in node order
    meta, order = _meta_db(tree, pairs, title, entry, ctx_of, raw)
    (directory / "meta.db").write_bytes(meta)
    per_profile = []
    for k in range(len(pairs)):
        per_profile.append(np.stack([own[:, :, k], values[:, :, 2 * k + 1], values[:, :, 2 * k]],
                                    axis=2))
    scoped = np.concatenate(per_profile, axis=2)  # (profiles, nodes, 3 * pairs)
    if not entry:  # the synthetic entry context: inclusive = its roots' inclusive, no own cost
        top = np.zeros((scoped.shape[0], 1, scoped.shape[2]))
        top[:, 0, 2::3] = scoped[:, tree.roots, 2::3].sum(axis=1)
        scoped = np.concatenate([scoped, top], axis=1)
        ctx_of = np.append(ctx_of, n + 1)
    (directory / "profile.db").write_bytes(_profile_db(scoped, blocks, ctx_of, raw))
    (directory / "cct.db").write_bytes(_cct_db(scoped, ctx_of))
    return directory


def _type(tree: _Tree, v: int) -> str:
    frame_type = tree.frames["type"].iloc[v] if "type" in tree.frames.columns else None
    return frame_type if isinstance(frame_type, str) else "function"


def _own_values(values: np.ndarray, tree: _Tree) -> np.ndarray:
    """Each node's own (exclusive) value per profile and metric: inclusive minus children."""
    inc = values[:, :, 0::2]
    own = inc.copy()
    child = np.flatnonzero(tree.parent >= 0)
    np.subtract.at(own.transpose(1, 0, 2), tree.parent[child], inc.transpose(1, 0, 2)[child])
    return own


def _meta_db(tree: _Tree, pairs, title: str, entry: List[int], ctx_of,
             raw: Any) -> Tuple[bytes, Any]:
    n = len(tree.ids)
    blob = _Blob(16 + 16 * 8)
    sections: List[Tuple[int, int]] = []

    def section(start: int) -> None:
        sections.append((len(blob.buf) - start, start))

    # general properties
    start = blob.align()
    at = blob.add(bytes(16))
    blob.put(at, _u("QQ", blob.string(title), blob.string("written by graphframe's benchmarks")))
    section(start)
    # identifier names
    start = blob.align()
    head = blob.add(bytes(16))
    names = blob.add(bytes(8 * len(KINDS)))
    for k, kind in enumerate(KINDS):
        blob.put(names + 8 * k, _u("Q", blob.string(kind)))
    blob.put(head, _u("QB", names, len(KINDS)))
    section(start)
    # performance metrics
    start = blob.align()
    head = blob.add(bytes(32))
    scopes = blob.add(bytes(16 * len(SCOPES)))
    for k, (name, kind, index) in enumerate(SCOPES):
        blob.put(scopes + 16 * k, _u("QBB", blob.string(name), kind, index))
    mets = blob.add(bytes(32 * len(pairs)))
    for m, (_exc, _inc, base) in enumerate(pairs):
        insts = blob.add(bytes(16 * len(SCOPES)))
        sums = blob.add(bytes(24 * len(SCOPES)))
        formula = blob.string("$$")
        for k in range(len(SCOPES)):
            blob.put(insts + 16 * k, _u("QH", scopes + 16 * k, 3 * m + k))
            blob.put(sums + 24 * k, _u("QQBxH", scopes + 16 * k, formula, 0, 3 * m + k))
        name = "CPUTIME (sec)" if base == "time" else base
        blob.put(mets + 32 * m, _u("QQQHH", blob.string(name), insts, sums, len(SCOPES), len(SCOPES)))
    blob.put(head, _u("QIBBBxQHB", mets, len(pairs), 32, 16, 24, scopes, len(SCOPES), 16))
    section(start)
    # strings, modules, files, functions (placed before the context tree that points at them)
    start_str = blob.align()
    files: Dict[str, int] = {}
    funcs: Dict[Tuple[str, str, int], int] = {}
    file_text = [str(f) if f is not None else "<unknown file>" for f in tree.files]
    str_of = {f: blob.string(f) for f in dict.fromkeys(file_text)}
    module_text = [str(m) if isinstance(m, str) else "app" for m in tree.modules]
    module_str = {m: blob.string(m) for m in dict.fromkeys(module_text)}
    func_names = [str(x) if x is not None else "<unknown procedure>" for x in tree.names]
    name_ptr = {f: blob.string(f) for f in dict.fromkeys(func_names)}
    section(start_str)
    start = blob.align()
    head = blob.add(bytes(16))
    table = blob.add(bytes(16 * len(module_str)))
    module_ptr: Dict[str, int] = {}
    for k, (text, ptr) in enumerate(module_str.items()):
        blob.put(table + 16 * k, _u("IxxxxQ", 0, ptr))
        module_ptr[text] = table + 16 * k
    blob.put(head, _u("QIH", table, len(module_str), 16))
    section(start)
    start = blob.align()
    head = blob.add(bytes(16))
    table = blob.add(bytes(16 * len(str_of)))
    for k, (text, ptr) in enumerate(str_of.items()):
        blob.put(table + 16 * k, _u("IxxxxQ", 0, ptr))
        files[text] = table + 16 * k
    blob.put(head, _u("QIH", table, len(str_of), 16))
    section(start)
    start = blob.align()
    head = blob.add(bytes(16))
    kinds = [_type(tree, v) for v in range(n)]
    func_key = [(func_names[v], file_text[v], int(tree.lines[v] or 0), module_text[v])
                for v in range(n)]
    keys = [func_key[v] for v in range(n) if kinds[v] not in LEXICAL or kinds[v] == "function"]
    uniq = list(dict.fromkeys(keys))
    table = blob.add(bytes(40 * len(uniq)))
    for k, key in enumerate(uniq):
        fname, ftext, line, module = key
        blob.put(table + 40 * k, _u("QQQQII", name_ptr[fname], module_ptr[module], 0,
                                    files[ftext], line, 0))
        funcs[key] = table + 40 * k
    blob.put(head, _u("QIH", table, len(uniq), 40))
    section(start)
    # context tree: entry point(s), then every context in breadth-first order
    start = blob.align()
    head = blob.add(bytes(16))
    order = _bfs(tree, entry)
    recs = np.zeros(len(order), dtype=CTX)
    pos = {v: k for k, v in enumerate(order)}
    recs["ctx"] = ctx_of[order]
    lex = np.array([LEXICAL.get(kinds[v], 0) if kinds[v] != "entry" else 0 for v in order],
                   dtype=np.uint8)
    line = np.array([int(tree.lines[v] or 0) for v in order], dtype=np.uint64)
    file_ptr = np.array([files[file_text[v]] for v in order], dtype=np.uint64)
    func_ptr = np.array([funcs.get(func_key[v], 0) for v in order], dtype=np.uint64)
    mod_ptr = np.array([module_ptr[module_text[v]] for v in order], dtype=np.uint64)
    is_func, is_ins = lex == 0, lex == 3
    relation = np.where(is_func, 1, 0)
    if raw.node_columns is not None and "relation" in raw.node_columns.columns:
        given = raw.node_columns["relation"].reset_index(drop=True)
        codes = [RELATIONS.get(given.iloc[v]) for v in order]
        relation = np.array([c if c is not None else d for c, d in zip(codes, relation)])
    recs["kind"], recs["rel"], recs["nflex"] = lex, relation, 3
    recs["flags"] = np.where(is_func, 3, np.where(is_ins, 4, 2))
    recs["w0"] = np.where(is_func, func_ptr, np.where(is_ins, mod_ptr, file_ptr))
    recs["w1"] = np.where(is_func, file_ptr, line)
    recs["w2"] = np.where(is_func, line, 0)
    entries = blob.add(bytes(32))
    base = blob.align()
    offsets = base + CTX.itemsize * np.arange(len(order), dtype=np.int64)
    children = [[c for c in tree.children[v]] for v in order]
    for k, kids in enumerate(children):
        if kids:
            recs["p"][k] = offsets[pos[kids[0]]]
            recs["sz"][k] = CTX.itemsize * len(kids)
    blob.add(recs.tobytes())
    tops = [c for v in entry for c in tree.children[v]] if entry else tree.roots
    entry_ctx = int(ctx_of[entry[0]]) if entry else len(tree.ids) + 1
    pretty = blob.string("main thread")
    blob.put(entries, _u("QQIHxxQ", CTX.itemsize * len(tops),
                         int(offsets[pos[tops[0]]]) if tops else 0, entry_ctx, 1, pretty))
    blob.put(head, _u("QHB", entries, 1, 32))
    section(start)
    blob.align()
    blob.buf += b"_meta.db"
    order_sections = [sections[i] for i in (0, 1, 2, 7, 3, 4, 5, 6)]
    blob.put(0, b"HPCTOOLKITmeta" + bytes([4, 0]))
    for k, (sz, ptr) in enumerate(order_sections):
        blob.put(16 + 16 * k, _u("QQ", sz, ptr))
    return bytes(blob.buf), order


def _bfs(tree: _Tree, entry: List[int]) -> List[int]:
    """Breadth-first order of the contexts (children arrays end up contiguous)."""
    level = [c for v in entry for c in tree.children[v]] if entry else list(tree.roots)
    out: List[int] = []
    while level:
        out.extend(level)
        level = [c for v in level for c in tree.children[v]]
    return out


def _sparse(plane: np.ndarray, ctx_of: np.ndarray, metric_base: int = 0):
    """(ctx indices, values) of one profile: non-zero values sorted by context then metric."""
    nodes, metrics = np.nonzero(plane)
    ctx = ctx_of[nodes]
    order = np.lexsort((metrics, ctx))
    ctx, metrics, vals = ctx[order], metrics[order] + metric_base, plane[nodes, metrics - metric_base][order]
    values = np.zeros(len(vals), dtype=[("m", "<u2"), ("v", "<f8")])
    values["m"], values["v"] = metrics, vals
    uctx, first = np.unique(ctx, return_index=True)
    index = np.zeros(len(uctx), dtype=[("c", "<u4"), ("s", "<u8")])
    index["c"], index["s"] = uctx, first
    return values, index


def _profile_db(scoped: np.ndarray, blocks, ctx_of, raw) -> bytes:
    profiles = [scoped.sum(axis=0)] + [scoped[b] for b in range(scoped.shape[0])]
    blob = _Blob(48)
    start = blob.align()
    head = blob.add(bytes(16))
    infos = blob.add(bytes(48 * len(profiles)))
    blob.put(head, _u("QIB", infos, len(profiles), 48))
    info_size = len(blob.buf) - start
    id_start = blob.align()
    tuples = []
    threaded = "thread" in raw.index_levels
    for rank, thread in blocks:
        ids = [(1, 0, 0, 1)] + [(2, rank, rank, 0)] + ([(3, thread, thread, 0)] if threaded else [])
        at = blob.add(_u("H6x", len(ids)) + b"".join(_u("BxHIQ", k, fl, lg, ph) for k, lg, ph, fl in ids))
        tuples.append(at)
    id_size = len(blob.buf) - id_start
    for k, plane in enumerate(profiles):
        values, index = _sparse(plane, ctx_of)
        p_values = blob.add(values.tobytes())
        p_index = blob.add(index.tobytes(), 4)
        blob.put(infos + 48 * k, _u("QQIxxxxQQI", len(values), p_values, len(index), p_index,
                                    tuples[k - 1] if k else 0, 1 if k == 0 else 0))
    blob.align()
    blob.buf += b"_prof.db"
    blob.put(0, b"HPCTOOLKITprof" + bytes([4, 0]) + _u("QQQQ", info_size, start, id_size, id_start))
    return bytes(blob.buf)


def _cct_db(scoped: np.ndarray, ctx_of) -> bytes:
    n_ctx = int(ctx_of.max()) + 2
    n_metrics = scoped.shape[2]
    blob = _Blob(32)
    start = blob.align()
    head = blob.add(bytes(16))
    infos = blob.add(bytes(32 * n_ctx))
    blob.put(head, _u("QIB", infos, n_ctx, 32))
    size = len(blob.buf) - start
    prof, node, metric = np.nonzero(scoped)
    order = np.lexsort((prof, metric, node))
    prof, node, metric = prof[order], node[order], metric[order]
    vals = np.zeros(len(prof), dtype=[("p", "<u4"), ("v", "<f8")])
    vals["p"], vals["v"] = prof + 1, scoped[prof, node, metric]
    p_vals = blob.add(vals.tobytes())
    n_nodes = scoped.shape[1]
    counts = np.bincount(node, minlength=n_nodes)
    first = np.cumsum(counts) - counts
    key = node.astype(np.int64) * n_metrics + metric
    groups, gfirst = np.unique(key, return_index=True)
    owner = groups // n_metrics
    idx = np.zeros(len(groups), dtype=[("m", "<u2"), ("s", "<u8")])
    idx["m"], idx["s"] = groups % n_metrics, gfirst - first[owner]
    p_idx = blob.add(idx.tobytes(), 2)
    n_met = np.bincount(owner, minlength=n_nodes)
    ifirst = np.cumsum(n_met) - n_met
    table = np.zeros(n_ctx, dtype=[("n", "<u8"), ("pv", "<u8"), ("nm", "<u2"), ("pad", "V6"),
                                   ("pi", "<u8")])
    table["n"][ctx_of] = counts
    table["pv"][ctx_of] = np.where(counts > 0, p_vals + 12 * first, 0)
    table["nm"][ctx_of] = n_met
    table["pi"][ctx_of] = np.where(n_met > 0, p_idx + 10 * ifirst, 0)
    blob.put(infos, table.tobytes())
    blob.align()
    blob.buf += b"__ctx.db"
    blob.put(0, b"HPCTOOLKITctxt" + bytes([4, 0]) + _u("QQ", size, start))
    return bytes(blob.buf)
