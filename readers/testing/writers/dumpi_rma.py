"""One-sided MPI (RMA) DUMPI traces: tests and the foRMA benchmark.

:func:`write_rma_trace` writes a folder with a ``.meta`` and one ``.bin``
per rank: one window, fence epochs of ``per_epoch`` operations
(``MPI_Put``, ``MPI_Get``, ``MPI_Accumulate`` in turn, to the next rank,
``count`` doubles each) closed by ``MPI_Win_fence``, records built with
numpy (:meth:`DumpiWriter.calls` + :func:`interleave`). ``sync="lock"``
brackets each epoch by ``MPI_Win_lock``/``MPI_Win_unlock`` of the target
instead, ``sync="pscw"`` by ``MPI_Win_post``/``start`` ... ``complete``/``wait``.

Examples
--------
>>> import tempfile
>>> folder = write_rma_trace(tempfile.mkdtemp(), ranks=2, ops=6, per_epoch=3)
>>> sorted(p.name for p in folder.iterdir())
['rma-0000.bin', 'rma-0001.bin', 'rma.meta']
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ...traces.dumpi.layouts import LABEL, LAYOUTS, TYPE_SIZE
from .dumpi import DumpiWriter, interleave

#: DUMPI's datatype id of MPI_DOUBLE (size 8 in the default size table)
MPI_DOUBLE = 14
#: fixed record header: label, mask, thread, two (seconds, ns) wall times
_HEAD = 2 + 1 + 2 + 12


def _size(name: str) -> int:
    return _HEAD + sum(TYPE_SIZE[t] for _, t, _ in LAYOUTS[LABEL[name]] if t in TYPE_SIZE)


def write_rma_trace(folder: "str | os.PathLike[str]", ranks: int, ops: int, *,
                    per_epoch: int = 8, count: int = 128, sync: str = "fence",
                    start_time: int = 1_700_000_000, prefix: str = "rma") -> Path:
    """Write the trace; ``ops`` one-sided operations per rank (see the module docs)."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{prefix}.meta").write_text(
        f"hostname=gen\nnumprocs={ranks}\nusername=gen\nstartime={start_time}\n"
        f"fileprefix={prefix}\nversion=13\nsubversion=0\nsubsubversion=0\n")
    epochs = max(1, -(-ops // per_epoch))
    for rank in range(ranks):
        w = DumpiWriter(start_time=start_time)
        target = (rank + 1) % ranks
        kinds = np.arange(ops) % 3                     # Put, Get, Accumulate
        epoch = np.arange(ops) // per_epoch
        # times (ns): each epoch is 1000 ns of opening sync, its ops 500 ns apart, 2000 ns close
        t0 = start_time * 1_000_000_000 + rank * 50
        op_start = t0 + epoch * (per_epoch * 500 + 3000) + 1000 + (np.arange(ops) % per_epoch) * 500
        op_end = op_start + 100 + (np.arange(ops) * 37 + rank) % 300
        open_start = t0 + np.arange(epochs) * (per_epoch * 500 + 3000)
        close_start = open_start + 1000 + per_epoch * 500
        chunks, sizes, order_keys = [], [], []
        for k, name in enumerate(("MPI_Put", "MPI_Get", "MPI_Accumulate")):
            sel = kinds == k
            extra = {"op": 3} if name == "MPI_Accumulate" else {}
            chunks.append(w.calls(name, op_start[sel], op_end[sel], origincount=count,
                                  origintype=MPI_DOUBLE, targetrank=target, targetcount=count,
                                  targettype=MPI_DOUBLE, win=1, **extra))
            sizes.append(_size(name))
            order_keys.append((op_start[sel], np.full(sel.sum(), len(chunks) - 1)))
        opener, closer = {"fence": ("MPI_Win_fence", "MPI_Win_fence"),
                          "lock": ("MPI_Win_lock", "MPI_Win_unlock"),
                          "pscw": ("MPI_Win_start", "MPI_Win_complete")}[sync]
        args = {"MPI_Win_fence": dict(assertion=0, win=1),
                "MPI_Win_lock": dict(locktype=1, winrank=target, assertion=0, win=1),
                "MPI_Win_unlock": dict(winrank=target, win=1),
                "MPI_Win_start": dict(group=1, assertion=0, win=1),
                "MPI_Win_complete": dict(win=1)}
        syncs = ((opener, open_start), (closer, close_start)) if sync != "fence" else \
            ((opener, np.concatenate([open_start[:1], close_start])),)  # one fence between
        for name, starts in syncs:
            chunks.append(w.calls(name, starts, starts + 800, **args[name]))
            sizes.append(_size(name))
            order_keys.append((starts, np.full(len(starts), len(chunks) - 1)))
        times = np.concatenate([t for t, _ in order_keys])
        which = np.concatenate([c for _, c in order_keys])
        order = which[np.argsort(times, kind="stable")]
        w.append(interleave(chunks, sizes, order))
        (out / f"{prefix}-{rank:04d}.bin").write_bytes(w.finish())
    return out
