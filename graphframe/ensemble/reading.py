"""Reading many profiles: in this process, in worker processes (``jobs=``) or on Dask.

Every worker runs :func:`read_batch`: it reads its profiles and reduces each
to :class:`~graphframe.ensemble.tables.ProfileTables` (arrays only) plus a
row of the ``profiles`` table, or records why it could not. Nothing but
these compact results travels back; the caller composes them in one pass.
Errors travel as text (file, exception type, message) so that any exception
crosses a process boundary; in this process the original exception is kept
and chained.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import graphframe_readers
from graphframe_readers.errors import ReadError
from graphframe_readers.progress import callback_for

from ..errors import ArgumentError
from ..io.dispatch import trace_parts, wrong_door
from ..io.resolve import own_formats, resolve
from ._internal import GraphFrame
from .options import ReaderOptions
from .sources import Member, content_hash, label
from .tables import ProfileTables, tables_from_graphframe, tables_from_raw

#: Profiles per task sent to a worker process or a Dask worker (fewer round trips).
BATCH = 16


@dataclass
class Outcome:
    """What reading one profile gave: its tables and ``profiles`` row, or an error."""

    member: Member
    tables: Optional[ProfileTables] = None
    info: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    error_type: Optional[str] = None
    exception: Optional[BaseException] = None


def read_one(member: Member, format: Optional[str], options: Any,
             keep_exception: bool = False) -> Outcome:
    """Read and reduce one profile; never raises for a bad file (see :class:`Outcome`).

    ``options`` is a :class:`~.options.ReaderOptions` (or a dict of options
    for every file): the file gets the options of its format.
    """
    name = label(member)
    options = ReaderOptions.coerce(options)
    try:
        what = resolve(member, format)
        fmt = what.format
        if what.kind == "archive":
            tables = tables_from_graphframe(GraphFrame.load(member))
        elif what.kind == "trace":  # its calling-context tree, streamed
            tables = tables_from_graphframe(GraphFrame(**trace_parts(member, fmt)))
        elif what.kind == "ensemble":
            raise wrong_door(what, "read")
        else:
            raw = graphframe_readers.read(member, format=fmt, **options.for_format(fmt))
            tables = tables_from_raw(raw, name)
        info = dict(path=name, hash=content_hash(member), format=fmt,
                    options=options.describe(fmt), nodes=tables.num_nodes,
                    rows=tables.num_rows)
        return Outcome(member, tables, info)
    except Exception as exc:  # noqa: BLE001 -- every failure is reported per file
        return Outcome(member, error=_message(exc, name), error_type=type(exc).__name__,
                       exception=exc if keep_exception or isinstance(exc, ReadError) else None)


def _message(exc: BaseException, name: str) -> str:
    text = str(exc)
    return text if name in text else f"{name}: {text}"


def read_batch(members: Sequence[Member], format: Optional[str],
               options: Any) -> List[Outcome]:
    """:func:`read_one` for each member (the unit of work of a worker)."""
    return [read_one(m, format, options) for m in members]


def read_all(members: Sequence[Member], format: Optional[str], options: Any,
             jobs: Optional[int] = None, client: Any = None, progress: Any = None
             ) -> List[Outcome]:
    """Read every member in order: here, in ``jobs`` processes, or on a Dask ``client``."""
    report = callback_for(progress)
    total = len(members)
    if report is not None:
        report(0, total, "profiles")
    if client is not None:
        outcomes = _on_dask(client, members, format, options, report)
    elif jobs is not None and jobs != 1:
        outcomes = _in_processes(_workers(jobs), members, format, options, report)
    else:
        outcomes = []
        for i, m in enumerate(members):
            outcomes.append(read_one(m, format, options, keep_exception=True))
            if report is not None:
                report(i + 1, total, "profiles")
    return outcomes


def _workers(jobs: int) -> int:
    if not isinstance(jobs, int) or isinstance(jobs, bool):
        raise ArgumentError(f"jobs={jobs!r}: give a number of worker processes (or -1 for one "
                            "per core)")
    if jobs == -1:
        return os.cpu_count() or 1
    if jobs < 1:
        raise ArgumentError(f"jobs={jobs}: give a positive number of worker processes "
                            "(or -1 for one per core)")
    return jobs


def _batches(members: Sequence[Member], workers: int) -> List[List[Member]]:
    size = max(1, min(BATCH, len(members) // (4 * workers) or 1))
    return [list(members[i:i + size]) for i in range(0, len(members), size)]


def _in_processes(workers: int, members: Sequence[Member], format: Optional[str],
                  options: Any, report: Optional[Callable]) -> List[Outcome]:
    batches = _batches(members, workers)
    outcomes: List[Outcome] = []
    own_formats()  # load every format once here: forked workers inherit them
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(read_batch, batches, [format] * len(batches),
                           [options] * len(batches))
        for batch in results:
            outcomes += batch
            if report is not None:
                report(len(outcomes), len(members), "profiles")
    return outcomes


def _on_dask(client: Any, members: Sequence[Member], format: Optional[str],
             options: Any, report: Optional[Callable]) -> List[Outcome]:
    """One task per batch on the cluster; results gathered in input order."""
    try:
        from distributed import as_completed  # lazy: Dask is an optional extra
    except ImportError as exc:
        raise ArgumentError("client= needs the 'distributed' package "
                            "(pip install graphframe[dask])") from exc
    workers = max(1, len(getattr(client, "nthreads", lambda: {1: 1})()))
    batches = _batches(members, workers)
    futures = client.map(read_batch, batches, format=format, options=options, pure=False)
    position = {f.key: i for i, f in enumerate(futures)}
    done: List[Optional[List[Outcome]]] = [None] * len(batches)
    count = 0
    for future in as_completed(futures):
        result = future.result()
        done[position[future.key]] = result
        count += len(result)
        if report is not None:
            report(count, len(members), "profiles")
    return [o for batch in done for o in (batch or [])]


def check_policy(on_error: str) -> None:
    """``on_error`` must be ``"raise"``, ``"warn"`` or ``"skip"``."""
    if on_error not in ("raise", "warn", "skip"):
        raise ArgumentError(f"on_error={on_error!r}: use 'raise', 'warn' or 'skip'")


def raise_for(outcome: Outcome) -> None:
    """Raise the error of a failed profile as a :class:`ReadError` naming the file."""
    name = label(outcome.member)
    if isinstance(outcome.exception, ReadError):
        raise outcome.exception
    error = ReadError(name, outcome.error.replace(f"{name}: ", "", 1) if outcome.error else
                      "unknown error", expected="a readable profile")
    raise error from outcome.exception
