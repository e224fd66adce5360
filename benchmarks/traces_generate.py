"""Synthetic traces of any size, in the formats we write (Chrome JSON, SST DUMPI).

Chrome: per (pid, tid) stream, ``main`` holds iterations of a fixed nested
call pattern (depth up to 5, eight region names), written as ``X`` events in
start order, one per line (``TraceFrame.to_chrome`` writes ``B``/``E`` pairs).
DUMPI: one file per rank plus a ``.meta``; each rank repeats a ring exchange (MPI_Isend,
MPI_Recv, MPI_Wait) and an MPI_Allreduce with fixed-layout records.

Usage: ``python -m benchmarks.traces_generate chrome|dumpi EVENTS OUT``.
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


if __name__ == "__main__":
    kind, n, out = sys.argv[1], int(float(sys.argv[2])), sys.argv[3]
    print(chrome(n, out) if kind == "chrome" else dumpi(n, out))
