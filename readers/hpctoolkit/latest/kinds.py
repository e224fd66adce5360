"""The ``type`` column of the current HPCToolkit layout: what kind of context each node is.

The frame keeps Hatchet's lexical type (``entry``, ``function``, ``loop``,
``line``, ``instruction``), so frames, queries on frames and ``tree()`` are
unchanged. The dataframe's ``type`` column says more, from what ``meta.db``
records about a context (its lexical type, its relation to its parent, its
function and load module):

=================== ==========================================================
``type``            context
=================== ==========================================================
``entry``           an entry point (``main thread``, ``application thread``...)
``function``        a function reached by an ordinary call
``inlined function`` a function reached by an inlined call (relation 2)
``openmp region``   an outlined OpenMP parallel region (compiler naming:
                    ``f._omp_fn.0``, ``.omp_outlined.``, ``cray$mt$p``...)
``openmp runtime``  an ``<omp ...>`` placeholder (``<omp idle>``...)
``gpu kernel``      the ``<gpu kernel>`` placeholder (a kernel launch)
``gpu operation``   another ``<gpu ...>`` placeholder (copies, syncs, ...)
``gpu function``    a function of a GPU binary (``*.gpubin``, ``<logical gpu-kernel>``)
``gpu instruction`` an instruction of a GPU binary
``loop``            a loop
``line``            a source line
``instruction``     a machine instruction
``call site``       a line or instruction from which a function (or a callee's
                    instruction) is called
=================== ==========================================================

Placeholders, GPU binaries and outlined regions are recognised by the names
hpcrun and the compilers give them: ``meta.db`` has no flag for them.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

#: Name fragments compilers give outlined OpenMP parallel regions (GCC, LLVM, Cray, Intel).
OPENMP_OUTLINED = ("._omp_fn.", ".omp_outlined.", "__omp_outlined__", "$mt$p", "_par_region",
                   "__par_loop")

KINDS = ("entry", "function", "inlined function", "openmp region", "openmp runtime",
         "gpu kernel", "gpu operation", "gpu function", "gpu instruction", "loop", "line",
         "instruction", "call site")


def is_gpu_module(module: Optional[str]) -> bool:
    """A load module holding GPU code (hpcrun saves GPU binaries as ``gpubins/*.gpubin``).

    Examples
    --------
    >>> is_gpu_module("out/gpubins/da22.gpubin"), is_gpu_module("<logical gpu-kernel>")
    (True, True)
    >>> is_gpu_module("/usr/lib64/libcuda.so.1")
    False
    """
    if not module:
        return False
    return module.endswith(".gpubin") or "/gpubins/" in module or module.startswith("<logical gpu")


def context_kind(lexical: str, relation: str, function: Optional[str],
                 module: Optional[str]) -> str:
    """The ``type`` of one context, before call sites are marked (see :func:`mark_call_sites`).

    Examples
    --------
    >>> context_kind("function", "call", "<gpu kernel>", None)
    'gpu kernel'
    >>> context_kind("function", "inlined call", "swap", "/bin/app")
    'inlined function'
    >>> context_kind("function", "call", "main._omp_fn.0", "/bin/app")
    'openmp region'
    >>> context_kind("instruction", "call", None, "out/gpubins/a.gpubin")
    'gpu instruction'
    """
    if lexical == "function":
        name = function or ""
        if name.startswith("<gpu ") and name.endswith(">"):
            return "gpu kernel" if name == "<gpu kernel>" else "gpu operation"
        if name.startswith("<omp ") and name.endswith(">"):
            return "openmp runtime"
        if is_gpu_module(module):
            return "gpu function"
        if any(part in name for part in OPENMP_OUTLINED):
            return "openmp region"
        return "inlined function" if relation == "inlined call" else "function"
    if lexical == "instruction" and is_gpu_module(module):
        return "gpu instruction"
    return lexical


def mark_call_sites(kind: np.ndarray, parent: np.ndarray, relation: np.ndarray) -> np.ndarray:
    """``kind`` with each line or instruction that has a called child set to ``call site``.

    In ``meta.db`` a call is a child whose relation is ``call`` or ``inlined
    call``; its parent is the source line (or instruction) of the call.

    Examples
    --------
    >>> kind = np.array(["function", "line", "function", "line"], dtype=object)
    >>> mark_call_sites(kind, np.array([-1, 0, 1, 2]),
    ...                 np.array(["call", "lexical", "call", "lexical"])).tolist()
    ['function', 'call site', 'function', 'line']
    """
    out = kind.copy()
    called = (parent >= 0) & np.isin(relation, ["call", "inlined call"])
    callers = np.unique(parent[called])
    site = callers[np.isin(out[callers], ["line", "instruction"])]
    out[site] = "call site"
    return out
