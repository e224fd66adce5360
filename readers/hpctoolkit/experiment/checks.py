"""Is the set of metric files of an old-layout HPCToolkit database complete?

Two checks, both cheap (no value is read twice, no loop over a rank range):

* :func:`check_complete`: the file names (or ``.mdb`` profile table) must
  cover ranks ``0..R-1`` and, for every rank, the same CPU threads (GPU
  streams, thread 500 and up, may differ between ranks). A gap is reported
  by rank and thread.
* :func:`check_totals`: a missing *last* rank (or a thread missing on every
  rank) leaves no gap in the names. ``experiment.xml`` records each metric's
  total over the whole experiment (``<M>`` values directly inside
  ``<SecCallPathProfileData>``, 6 significant digits); the roots' inclusive
  values in the files must add up to it. Only the roots' rows are read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import numpy as np

from ...errors import ReadError
from .metricdb import Block, read_rows

#: Relative difference tolerated between the files' total and experiment.xml's (which is
#: printed with 6 significant digits: at most 5e-6 off).
TOLERANCE = 1e-5

#: Threads from here on are GPU streams (hpcprof's numbering); they may differ between ranks.
GPU_THREADS = 500


def check_complete(blocks: List[Block], directory: Path) -> None:
    """Every rank ``0..R-1`` present, each with the same set of CPU threads.

    Examples
    --------
    >>> b = [Block(Path("x"), 0, r, t, 0) for r, t in [(0, 0), (0, 1), (1, 0)]]
    >>> check_complete(b, Path("db"))
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: db: directory listing: no metric file for rank 1 thread 1 (the other files cover ranks 0..1 and threads [0, 1]) (expected one metric file (or .mdb profile) per rank and thread)
    """
    if not blocks:
        return
    pairs = np.array([(b.rank, b.thread) for b in blocks], dtype=np.int64)
    ranks = np.unique(pairs[:, 0])
    cpu = pairs[pairs[:, 1] < GPU_THREADS]
    threads = np.unique(cpu[:, 1])
    last = int(ranks[-1])
    expected = "one metric file (or .mdb profile) per rank and thread"
    gap = np.flatnonzero(ranks != np.arange(len(ranks)))
    if len(gap):  # ranks are sorted and distinct: the first mismatch is the first gap
        missing = int(gap[0])
        raise ReadError(directory, f"no metric file for rank {missing} (the other files cover "
                        f"ranks 0..{last} and threads {threads.tolist()})",
                        position="directory listing", expected=expected)
    have = set(map(tuple, cpu.tolist()))
    if len(have) == len(ranks) * len(threads):
        return
    for r in ranks.tolist():  # only reached when a pair is missing: report the first one
        for t in threads.tolist():
            if (r, t) not in have:
                raise ReadError(directory, f"no metric file for rank {r} thread {t} (the other "
                                f"files cover ranks 0..{last} and threads {threads.tolist()})",
                                position="directory listing", expected=expected)


def check_totals(directory: Path, xml_path: Path, totals: Dict[int, float],
                 metric_table: List[Dict[str, str]], declared: List[Dict[str, Any]],
                 blocks: List[Block], root_rows: np.ndarray, shape) -> None:
    """The roots' inclusive values, summed over every file, equal experiment.xml's totals.

    ``totals`` maps MetricTable ids to the recorded totals; ``metric_table``
    holds the MetricTable entries (``CPUTIME (usec):Sum (I)`` is the sum of
    the MetricDB metric ``CPUTIME (usec) (I)``); ``declared`` the MetricDB
    entries with their file columns; ``root_rows`` the roots' rows in the
    files. Metrics without a recorded total are not checked.
    """
    by_file_name = {d["file_name"]: d for d in declared if d["inclusive"]}
    pairs = []
    for entry in metric_table:
        name = entry.get("n", "")
        if ":Sum" not in name:
            continue
        target = by_file_name.get(name.replace(":Sum", "", 1))
        try:
            ident = int(entry.get("i", ""))
        except ValueError:
            continue
        if target is not None and ident in totals:
            pairs.append((target, totals[ident]))
    if not pairs or not blocks or not len(root_rows):
        return
    columns = [d["column"] for d, _ in pairs]
    found = np.zeros(len(pairs))
    for block in blocks:
        found += read_rows(block, root_rows, *shape)[:, columns].sum(axis=0)
    for (d, recorded), total in zip(pairs, found.tolist()):
        if abs(total - recorded) <= TOLERANCE * max(abs(total), abs(recorded)):
            continue
        ranks = sorted({b.rank for b in blocks})
        threads = sorted({b.thread for b in blocks})
        raise ReadError(directory, f"the metric files add up to {total:.6g} for "
                        f"{d['file_name']!r} but experiment.xml records a total of "
                        f"{recorded:.6g}: metric files are missing (those present cover ranks "
                        f"{ranks[0]}..{ranks[-1]} and threads {threads}) or belong to another run",
                        position="directory listing",
                        expected="the metric files of every rank and thread hpcprof wrote "
                                 f"(their values add up to the totals in {xml_path.name})")
