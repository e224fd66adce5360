"""Synthetic traces of any size: Chrome JSON, SST DUMPI, Nsight NVTX push/pop CSV.

Chrome: per (pid, tid) stream, ``main`` holds iterations of a fixed nested
call pattern (depth up to 5, eight region names), written as ``X`` events in
start order, one per line (``TraceFrame.to_chrome`` writes ``B``/``E`` pairs).
DUMPI: one file per rank plus a ``.meta``; each rank repeats a ring exchange (MPI_Isend,
MPI_Recv, MPI_Wait) and an MPI_Allreduce with fixed-layout records.

NVTX CSV: the columns of ``nsys stats --report nvtx_pushpop_trace`` (``Start (ns)``,
``End (ns)``, ``Duration (ns)``, ``DurChild (ns)``, ``DurNonChild (ns)``, ``Name``, ``PID``,
``TID``, ``Lvl``, ``NumChild``, ``RangeId``, ``ParentId``, ``RangeStack``, ``NameTree``),
one row per range, the Chrome pattern's calls on each of ``processes`` processes (PID = TID),
rows in start order per process.

Usage: ``python -m benchmarks.traces_generate chrome|dumpi|nvtx EVENTS OUT`` (for ``nvtx``,
EVENTS counts ranges, i.e. CSV rows).
"""

from __future__ import annotations

import os
import sys
from typing import List, Tuple

import numpy as np

from graphframe_readers.testing.writers.dumpi import DumpiWriter, interleave

#: One iteration of the Chrome pattern: (name, depth, start, duration) in ns, nested.
PATTERN: List[Tuple[str, int, int, int]] = [
    ("solve", 1, 0, 9_000),
    ("assemble", 2, 100, 2_000),
    ("kernel", 3, 200, 1_500),
    ("load", 4, 300, 400),
    ("store", 4, 800, 500),
    ("precondition", 2, 2_200, 3_000),
    ("kernel", 3, 2_300, 2_000),
    ("reduce", 4, 2_400, 1_000),
    ("halo", 5, 2_500, 300),
    ("exchange", 2, 5_400, 3_000),
    ("halo", 3, 5_500, 1_000),
    ("reduce", 3, 6_600, 1_000),
]
PERIOD = 10_000


def chrome(events: int, out: str, streams: int = 4) -> str:
    """Write about ``events`` events (ENTER + LEAVE) as Chrome JSON; returns the path."""
    calls_per_iter = len(PATTERN)
    iters = max(1, (events // 2 - streams) // (calls_per_iter * streams))
    names = [p[0] for p in PATTERN]
    starts = np.array([p[2] for p in PATTERN], dtype=np.int64)
    durs = np.array([p[3] for p in PATTERN], dtype=np.int64)
    with open(out, "w", encoding="ascii") as fh:
        fh.write("[\n")
        first = True
        for s in range(streams):
            pid, tid = s // 2, s % 2
            total = iters * PERIOD + 1000
            line = f'{{"ph": "X", "name": "main", "pid": {pid}, "tid": {tid}, "ts": 0.000, ' \
                   f'"dur": {total // 1000}.{total % 1000:03d}}}'
            fh.write(("" if first else ",\n") + line)
            first = False
            heads = [f',\n{{"ph": "X", "name": "{n}", "pid": {pid}, "tid": {tid}, "ts": '
                     for n in names]
            chunk = 20_000
            for lo in range(0, iters, chunk):
                base = (np.arange(lo, min(lo + chunk, iters), dtype=np.int64) * PERIOD + 500)
                ts = base[:, None] + starts[None, :]
                parts = []
                for row in ts.tolist():
                    for j, t in enumerate(row):
                        d = int(durs[j])
                        parts.append(f'{heads[j]}{t // 1000}.{t % 1000:03d}, "dur": '
                                     f'{d // 1000}.{d % 1000:03d}}}')
                fh.write("".join(parts))
        fh.write("\n]\n")
    return out


def dumpi(events: int, out_dir: str, ranks: int = 4) -> str:
    """Write about ``events`` events as a DUMPI trace (one file per rank); returns the .meta."""
    os.makedirs(out_dir, exist_ok=True)
    # per iteration and rank: Isend, Recv, Wait, Allreduce -> 4 records, 10 events
    iters = max(1, events // (10 * ranks))
    t0 = 1_700_000_000
    for rank in range(ranks):
        w = DumpiWriter(start_time=t0)
        base = t0 * 1_000_000_000 + np.arange(iters, dtype=np.int64) * 10_000 + rank * 7
        chunks, sizes = [], []
        spec = [("MPI_Isend", 0, 900, dict(count=256, datatype=9, dest=(rank + 1) % ranks,
                                          tag=7, comm=2, request=1)),
                ("MPI_Recv", 1_000, 3_000, dict(count=256, datatype=9,
                                                source=(rank - 1) % ranks, tag=7, comm=2)),
                ("MPI_Wait", 4_500, 700, dict(request=1)),
                ("MPI_Allreduce", 6_000, 2_500 + 300 * rank, dict(count=8, datatype=14, op=3,
                                                                  comm=2))]
        for name, start, dur, args in spec:
            rec = w.calls(name, base + start, base + start + dur, **args)
            chunks.append(rec)
            sizes.append(len(rec) // iters)
        order = np.tile(np.arange(len(spec)), iters)
        w.append(interleave(chunks, sizes, order))
        with open(os.path.join(out_dir, f"synth-{rank:04d}.bin"), "wb") as fh:
            fh.write(w.finish())
    meta = os.path.join(out_dir, "synth.meta")
    with open(meta, "w", encoding="ascii") as fh:
        fh.write(f"hostname=bench\nnumprocs={ranks}\nusername=bench\nstartime={t0}\n"
                 "fileprefix=synth\nversion=1\nsubversion=0\nsubsubversion=0\n")
    return meta


def nvtx(ranges: int, out: str, processes: int = 4) -> str:
    """Write about ``ranges`` NVTX ranges (CSV rows) over ``processes`` processes; the path."""
    per = len(PATTERN)
    iters = max(1, (ranges // processes - 1) // per)
    names = np.array(["main"] + [p[0] for p in PATTERN], dtype=object)
    depth = np.array([0] + [p[1] for p in PATTERN], dtype=np.int64)
    rel_start = np.array([p[2] for p in PATTERN], dtype=np.int64)
    durs = np.array([p[3] for p in PATTERN], dtype=np.int64)
    # the pattern's parent (index into PATTERN, -1 = main) and children counts
    parent = np.full(per, -1, dtype=np.int64)
    for j in range(per):
        for k in range(j - 1, -1, -1):
            if PATTERN[k][1] == PATTERN[j][1] - 1:
                parent[j] = k
                break
    child_dur = np.zeros(per, dtype=np.int64)
    nchild = np.zeros(per, dtype=np.int64)
    for j in range(per):
        if parent[j] >= 0:
            child_dur[parent[j]] += durs[j]
            nchild[parent[j]] += 1
    with open(out, "w", encoding="ascii") as fh:
        fh.write("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,"
                 "TID,Lvl,NumChild,RangeId,ParentId,RangeStack,NameTree\n")
        for proc in range(processes):
            pid = 4000 + proc
            t0 = 1_000_000 + 37 * proc
            total = iters * PERIOD + 1000
            top_children = iters
            fh.write(f"{t0},{t0 + total},{total},{iters * 9_000},{total - iters * 9_000},main,"
                     f"{pid},{pid},0,{top_children},1,,:1,main\n")
            chunk = 20_000
            for lo in range(0, iters, chunk):
                it = np.arange(lo, min(lo + chunk, iters), dtype=np.int64)
                start = (t0 + 500 + it[:, None] * PERIOD + rel_start[None, :]).ravel()
                dur = np.tile(durs, len(it))
                rid = (2 + it[:, None] * per + np.arange(per)[None, :]).ravel()
                par = np.where(np.tile(parent, len(it)) >= 0,
                               (2 + it[:, None] * per + parent[None, :]).ravel(), 1)
                cd = np.tile(child_dur, len(it))
                lines = []
                stack = {}
                for s, d, r, pr, c, j in zip(start.tolist(), dur.tolist(), rid.tolist(),
                                             par.tolist(), cd.tolist(),
                                             np.tile(np.arange(per), len(it)).tolist()):
                    st = stack[pr] if pr in stack else ":1"
                    st = f"{st}:{r}"
                    stack[r] = st
                    lvl = int(depth[j + 1])
                    lines.append(f"{s},{s + d},{d},{c},{d - c},{names[j + 1]},{pid},{pid},"
                                 f"{lvl},{int(nchild[j])},{r},{pr},{st},"
                                 f"{'--' * lvl}{names[j + 1]}\n")
                fh.write("".join(lines))
    return out


if __name__ == "__main__":
    kind, n, out = sys.argv[1], int(float(sys.argv[2])), sys.argv[3]
    print({"chrome": chrome, "dumpi": dumpi, "nvtx": nvtx}[kind](n, out))
