"""HPCToolkit ``meta.db`` (format 4.x): metric descriptions and the context tree.

Two layouts share version number 4.0: the released one (metric description
32 bytes, scope instance 16, summary 24, a table of propagation scopes, entry
points above the contexts, context header 32 bytes) and a 2022 pre-release
(24/24/16, scope names stored in the scope instances, root contexts without
entry points, context header 24 bytes). The sizes stored in the metrics
section tell them apart.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..common import basename
from .dbfile import DbFile
from .kinds import context_kind, mark_call_sites

KINDS = {0: "function", 1: "loop", 2: "line", 3: "instruction"}
ENTRY_NAMES = {0: "unknown entry", 1: "main thread", 2: "application thread"}
_CTX = struct.Struct("<QQIBBBB")


# Plain classes, not dataclasses: each @dataclass costs ~0.5 ms when the module is
# imported, which the first read of a small trace pays (issue 31).
class MetricDesc:
    """One metric: ``scopes`` maps a propagation scope name to its propMetricId,
    ``summaries`` lists ``(scope, combine, statMetricId)`` (combine 0 sum, 1 min, 2 max)."""

    __slots__ = ("name", "scopes", "summaries")

    def __init__(self, name: str, scopes: Optional[Dict[str, int]] = None,
                 summaries: Optional[List[Tuple[str, int, int]]] = None) -> None:
        self.name = name
        self.scopes: Dict[str, int] = {} if scopes is None else scopes
        self.summaries: List[Tuple[str, int, int]] = [] if summaries is None else summaries


class ContextTree:
    """Contexts in discovery order: ids, parent positions and per-node attributes
    (``category``: see hpctoolkit_kinds.context_kind; ``entry_point``: position ->
    entryPoint code)."""

    __slots__ = ("ctx_id", "parent", "kind", "name", "file", "line", "module", "relation",
                 "category", "depth", "entry_point")

    def __init__(self) -> None:
        self.ctx_id: List[int] = []
        self.parent: List[int] = []
        self.kind: List[str] = []
        self.name: List[str] = []
        self.file: List[Optional[str]] = []
        self.line: List[int] = []
        self.module: List[Optional[str]] = []
        self.relation: List[str] = []
        self.category: List[str] = []
        self.depth: List[int] = []
        self.entry_point: Dict[int, int] = {}


class MetaDb:
    """What ``meta.db`` holds: title, identifier kinds, metrics and the context tree."""

    __slots__ = ("title", "id_kinds", "metrics", "tree", "prerelease")

    def __init__(self, title: str, id_kinds: List[str], metrics: List[MetricDesc],
                 tree: ContextTree, prerelease: bool) -> None:
        self.title, self.id_kinds, self.metrics = title, id_kinds, metrics
        self.tree, self.prerelease = tree, prerelease


#: How context nodes are named (see :func:`context_name`).
NAMINGS = ("plain", "hatchet")


def read_meta_db(path: Any, label_function_nodes: bool = True,
                 names: str = "hatchet") -> MetaDb:
    """Decode ``meta.db``: identifier kinds, metric descriptions and the context tree
    (nodes named as :func:`context_name` says)."""
    db = DbFile(path, b"meta", sections=8)
    sec = db.sections
    title = db.string(db.unpack("<Q", sec[0][1], "the title pointer")[0], "the title") \
        if sec[0][0] else ""
    pp_names, n_kinds = db.unpack("<QB", sec[1][1], "the identifier names header")
    kinds = [db.string(db.unpack("<Q", pp_names + 8 * k, "an identifier name pointer")[0],
                       "an identifier name") for k in range(n_kinds)]
    metrics, prerelease = _metrics(db, sec[2][1])
    tree = _ContextReader(db, prerelease, label_function_nodes, names).read(sec[3])
    return MetaDb(title, kinds, metrics, tree, prerelease)


def _metrics(db: DbFile, base: int) -> Tuple[List[MetricDesc], bool]:
    p_metrics, n_metrics, sz_metric, sz_inst, sz_summary = db.unpack("<QIBBB", base,
                                                                    "the metrics header")
    prerelease = (sz_metric, sz_inst, sz_summary) == (24, 24, 16)
    if not prerelease and (sz_metric < 32 or sz_inst < 16 or sz_summary < 24):
        raise db.error(base + 12, f"metric structure sizes {sz_metric}/{sz_inst}/{sz_summary}",
                       "32/16/24 (format 4.0) or 24/24/16 (2022 pre-release)")
    out = []
    for k in range(n_metrics):
        at = p_metrics + k * sz_metric
        if prerelease:
            p_name, n_scopes, p_scopes = db.unpack("<QH6xQ", at, f"metric {k}")
            desc = MetricDesc(db.string(p_name, f"the name of metric {k}"))
            for j in range(n_scopes):
                p_scope, n_sum, prop, p_sums = db.unpack("<QHH4xQ", p_scopes + j * sz_inst,
                                                         f"scope {j} of metric {k}")
                scope = db.string(p_scope, "a scope name")
                desc.scopes[scope] = prop
                for i in range(n_sum):
                    _, combine, stat = db.unpack("<QBxH", p_sums + i * sz_summary,
                                                 f"summary {i} of metric {k}")
                    desc.summaries.append((scope, combine, stat))
        else:
            p_name, p_insts, p_sums, n_insts, n_sums = db.unpack("<QQQHH", at, f"metric {k}")
            desc = MetricDesc(db.string(p_name, f"the name of metric {k}"))
            for j in range(n_insts):
                p_scope, prop = db.unpack("<QH", p_insts + j * sz_inst, f"scope instance {j} "
                                          f"of metric {k}")
                desc.scopes[_scope_name(db, p_scope)] = prop
            for i in range(n_sums):
                p_scope, _, combine, stat = db.unpack("<QQBxH", p_sums + i * sz_summary,
                                                      f"summary {i} of metric {k}")
                desc.summaries.append((_scope_name(db, p_scope), combine, stat))
        out.append(desc)
    return out, prerelease


def _scope_name(db: DbFile, p_scope: int) -> str:
    (p_name,) = db.unpack("<Q", p_scope, "a propagation scope")
    return db.string(p_name, "a propagation scope name")


def context_name(kind: str, src_file: Optional[str], line: int, module: Optional[str],
                 offset: int, names: str = "plain") -> str:
    """The name of a loop, line or instruction context.

    ``"hatchet"``: Hatchet's ``from_hpctoolkit_latest`` names, the kind as a prefix
    and the whole path (``loop /src/a.c:5``, ``line /src/a.c:6``). ``"plain"``: the
    names HPCToolkit's old layout gives the same scopes (``Loop@a.c:5``, ``a.c:6``),
    the kind being the frame's ``type``; so both layouts of one program name their
    nodes alike. Instructions are ``<module>:<offset>`` in both.

    Examples
    --------
    >>> context_name("loop", "/src/a.c", 5, None, 0, "hatchet")
    'loop /src/a.c:5'
    >>> context_name("loop", "/src/a.c", 5, None, 0), context_name("line", "/src/a.c", 6, None, 0)
    ('Loop@a.c:5', 'a.c:6')
    >>> context_name("line", None, 0, "/lib/x.so", 16)
    '[x.so]:0'
    """
    if kind == "instruction":
        return f"{module}:{offset}"
    if names == "hatchet":
        return f"{kind} {module}:{offset}" if src_file is None else f"{kind} {src_file}:{line}"
    where = basename(src_file) if src_file is not None else \
        (f"[{basename(module)}]" if module else "<unknown file>")
    return f"{'Loop@' if kind == 'loop' else ''}{where}:{line}"


class _ContextReader:
    """Walks the context tree iteratively (explicit stack; deep trees are fine)."""

    def __init__(self, db: DbFile, prerelease: bool, label: bool,
                 names: str = "hatchet") -> None:
        self.names = names
        self.db = db
        self.header = 24 if prerelease else 32
        self.prerelease = prerelease
        self.label = label
        self.tree = ContextTree()
        self.strings: Dict[int, str] = {}
        self.paths: Dict[int, str] = {}  # file record -> path; -(module record) -> path
        self.functions: Dict[int, Tuple[str, Optional[str], Optional[str], int]] = {}

    def read(self, section: Tuple[int, int]) -> ContextTree:
        size, base = section
        self.limit = (base, base + size)
        stack: List[Tuple[int, int, int]] = []  # (pointer, size, parent position)
        if self.prerelease:
            sz_roots, p_roots = self.db.unpack("<QQ", base, "the context tree header")
            stack.append((p_roots, sz_roots, -1))
        else:
            p_entries, n_entries, sz_entry = self.db.unpack("<QHB", base, "the context tree header")
            for k in reversed(range(n_entries)):
                at = p_entries + k * sz_entry
                sz_c, p_c, ctx, entry, p_pretty = self.db.unpack("<QQIH2xQ", at, f"entry point {k}")
                name = self._string(p_pretty) if p_pretty else ENTRY_NAMES.get(entry, "entry")
                pos = self._add(ctx, -1, "entry", name, None, 0, None, "entry", "entry")
                self.tree.entry_point[pos] = entry
                if sz_c:
                    stack.append((p_c, sz_c, pos))
        budget = max(1, size // 24) + 1  # a context takes at least 24 bytes of the section
        while stack:
            ptr, size_, parent = stack.pop()
            end = ptr + size_
            if ptr < self.limit[0] or end > self.limit[1]:
                raise self.db.error(ptr, f"a child array ({size_} bytes) lies outside the context "
                                    "tree section", "child contexts inside the section")
            children = []
            while ptr < end:
                if ptr + self.header > end:
                    raise self.db.error(ptr, "a context record is cut short",
                                        f"a {self.header}-byte context header")
                sz_c, p_c, ctx, flags, relation, kind, n_flex = _CTX.unpack_from(self.db.data, ptr)
                flex_at = ptr + self.header
                ptr = flex_at + 8 * n_flex
                if ptr > end:
                    raise self.db.error(flex_at, "context flex data runs past its child array",
                                        f"{n_flex} words of flex data")
                words = struct.unpack_from(f"<{n_flex}Q", self.db.data, flex_at)
                pos = self._context(ctx, parent, flags, relation, kind, words, flex_at)
                if sz_c:
                    children.append((p_c, sz_c, pos))
                budget -= 1
                if budget < 0:
                    raise self.db.error(flex_at, "the context tree has more records than its "
                                        "section can hold (child pointers loop)",
                                        "each context listed once")
            stack.extend(reversed(children))
        return self.tree

    def _context(self, ctx, parent, flags, relation, kind, words, at) -> int:
        need = (1 if flags & 1 else 0) + (2 if flags & 2 else 0) + (2 if flags & 4 else 0)
        if need > len(words):
            raise self.db.error(at, f"flags {flags:#x} announce {need} flex words but there are "
                                f"{len(words)}", "flex words matching the flags")
        k = 0
        function = src_file = module = None
        line = offset = 0
        if flags & 1:
            function = words[0]
            k = 1
        if flags & 2:
            src_file, line = self._file(words[k]), words[k + 1] & 0xFFFFFFFF
            k += 2
        if flags & 4:
            module, offset = self._module(words[k]), words[k + 1]
        type_ = KINDS.get(kind)
        if type_ is None:
            raise self.db.error(at - self.header + 22, f"unknown lexical type {kind}",
                                "0 (function), 1 (loop), 2 (line) or 3 (instruction)")
        rel = {0: "lexical", 1: "call", 2: "inlined call"}.get(relation, f"relation {relation}")
        fname = None
        if type_ == "function":
            if function:
                fname, fmod, ffile, fline = self._function(function)
                module, src_file, line = module or fmod, src_file or ffile, line or fline
            category = context_kind(type_, rel, fname, module)
            if fname is None:
                fname = f"<unknown procedure> {offset:#x} [{basename(module or '?')}]" \
                    if module else "<unknown procedure>"
            name = f"function: {fname}" if self.label else fname
        else:
            category = context_kind(type_, rel, None, module)
            name = context_name(type_, src_file, line, module, offset, self.names)
        return self._add(ctx, parent, type_, name, src_file, line, module, rel, category)

    def _add(self, ctx, parent, kind, name, src_file, line, module, relation, category) -> int:
        t = self.tree
        t.ctx_id.append(ctx)
        t.parent.append(parent)
        t.kind.append(kind)
        t.name.append(name)
        t.file.append(src_file)
        t.line.append(line)
        t.module.append(module)
        t.relation.append(relation)
        t.category.append(category)
        t.depth.append(0 if parent < 0 else t.depth[parent] + 1)
        return len(t.ctx_id) - 1

    def _string(self, ptr: int) -> str:
        s = self.strings.get(ptr)
        if s is None:
            s = self.strings[ptr] = self.db.string(ptr, "a string")
        return s

    def _file(self, ptr: int) -> Optional[str]:
        if not ptr:
            return None
        path = self.paths.get(ptr)
        if path is None:
            path = self._string(self.db.unpack("<Q", ptr + 8, "a source file")[0])
            path = self.paths[ptr] = path[3:] if path.startswith("src/") else path
        return path

    def _module(self, ptr: int) -> Optional[str]:
        if not ptr:
            return None
        path = self.paths.get(-ptr)
        if path is None:
            path = self.paths[-ptr] = self._string(self.db.unpack("<Q", ptr + 8, "a load module")[0])
        return path

    def _function(self, ptr: int):
        hit = self.functions.get(ptr)
        if hit is None:
            p_name, p_mod, _offset, p_file, line = self.db.unpack("<QQQQI", ptr, "a function")
            hit = self.functions[ptr] = (self._string(p_name) if p_name else None,
                                         self._module(p_mod), self._file(p_file), line)
        return hit


def tree_arrays(tree: ContextTree) -> Dict[str, np.ndarray]:
    """The tree's lists as arrays (ctx ids and parents as int64, text as object).

    ``kind`` is the frame type (Hatchet's lexical type); ``type`` the finer
    context kind of :mod:`graphframe_readers.hpctoolkit.latest.kinds`; ``entry`` the entry
    point code of the roots that are entry points (-1 elsewhere).
    """
    parent = np.array(tree.parent, dtype=np.int64)
    relation = np.array(tree.relation, dtype=object)
    entry = np.full(len(parent), -1, dtype=np.int64)
    for pos, code in tree.entry_point.items():
        entry[pos] = code
    return {"ctx_id": np.array(tree.ctx_id, dtype=np.int64),
            "parent": parent,
            "kind": np.array(tree.kind, dtype=object),
            "type": mark_call_sites(np.array(tree.category, dtype=object), parent, relation),
            "name": np.array(tree.name, dtype=object),
            "file": np.array(tree.file, dtype=object),
            "line": np.array(tree.line, dtype=np.int64),
            "module": np.array(tree.module, dtype=object),
            "relation": relation,
            "depth": np.array(tree.depth, dtype=np.int64),
            "entry": entry}
