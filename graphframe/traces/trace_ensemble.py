"""TraceEnsemble: several traced runs, labelled, with metadata, and their I/O tables.

``graphframe.read_traces(runs)`` reads each run into a call table
(:mod:`.read_many`) and keeps one :class:`~.io_view.IOView` per run. The
tables across runs put one quantity per run and rank, or per run and
function, in one DataFrame indexed by run (its label); ``.T`` gives the
transposes (rank or function x run). Quantities: ``records`` (calls),
``files`` (files accessed, stdin/stdout/stderr left out), ``accesses``
(file accesses), ``calls`` and ``time`` (s) per function. Per function,
``nonzero=False`` lists every traced function of every run.

Examples
--------
>>> import tempfile
>>> from graphframe_readers.testing.writers.recorder import RecorderTraceWriter
>>> runs = {}
>>> for n in (1, 3):
...     w = RecorderTraceWriter(ranks=2)
...     for r in range(2):
...         for i in range(n + r):
...             w.call(r, "write", [f"/d/{r}", "%p", "8"], 10 * i, 10 * i + 5)
...     runs[f"run{n}"] = w.write(tempfile.mkdtemp())
>>> te = read_traces(runs)
>>> te.table("records")
rank  0  1
run
run1  1  2
run3  3  4
>>> te.mean_per_rank("records").tolist()
[2.0, 3.0]
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from ..errors import ArgumentError
from .io.view import IOView
from .read_many import read_runs

#: quantities of :meth:`TraceEnsemble.table` and what each is per
QUANTITIES = {"records": "rank", "files": "rank", "accesses": "rank",
              "calls": "function", "time": "function"}


class TraceEnsemble:
    """Labelled runs, each an :class:`IOView`, with a ``metadata`` table indexed by run."""

    def __init__(self, views: Mapping[str, IOView],
                 metadata: Optional[pd.DataFrame] = None) -> None:
        self.views: Dict[str, IOView] = dict(views)
        meta = metadata if metadata is not None else pd.DataFrame(index=list(self.views))
        self.metadata = meta.rename_axis("run")

    # ------------------------------------------------------------------ access
    @property
    def runs(self) -> List[str]:
        """The run labels, in reading order."""
        return list(self.views)

    def __getitem__(self, run: str) -> IOView:
        return self.views[run]

    def __iter__(self) -> Iterator[str]:
        return iter(self.views)

    def __len__(self) -> int:
        return len(self.views)

    def __repr__(self) -> str:
        return f"TraceEnsemble({len(self.views)} runs)"

    @property
    def functions(self) -> List[str]:
        """Every traced function of every run (first-seen order)."""
        out: Dict[str, None] = {}
        for view in self.views.values():
            out.update(dict.fromkeys(view.functions))
        return list(out)

    # ------------------------------------------------------------------ tables
    def table(self, quantity: str, nonzero: bool = True, calls: str = "data") -> pd.DataFrame:
        """One quantity per run (rows) and rank or function (columns); see the module docs.
        ``calls`` is the access definition of ``files`` and ``accesses``."""
        if quantity not in QUANTITIES:
            raise ArgumentError(f"unknown quantity {quantity!r}; use one of "
                                + ", ".join(QUANTITIES))
        rows = {run: self._row(view, quantity, calls) for run, view in self.views.items()}
        table = pd.DataFrame(rows).T
        if QUANTITIES[quantity] == "rank":
            table = table.reindex(columns=sorted(table.columns))
            table.columns.name = "rank"
        else:
            called = set()  # nonzero: the functions some run calls (even for 0 s)
            for view in self.views.values():
                called.update(view.function_count().index)
            functions = [f for f in self.functions if f in called] if nonzero else \
                self.functions
            table = table.reindex(columns=functions).fillna(0)
            table.columns.name = "function"
        table.index.name = "run"
        if quantity == "time":
            return table.astype(np.float64)
        # counts stay integers unless a run lacks a rank another run has (NaN there)
        return table.astype(np.int64) if table.notna().all().all() else table

    @staticmethod
    def _row(view: IOView, quantity: str, calls: str) -> pd.Series:
        if quantity == "records":
            return view.record_count(per="rank")
        if quantity == "files":
            return view.file_count(per="rank", calls=calls)
        if quantity == "accesses":
            return view.total_file_accesses(per="rank", calls=calls)
        if quantity == "calls":
            return view.function_count()
        return view.function_time()

    def mean_per_rank(self, quantity: str = "records", calls: str = "data") -> pd.Series:
        """The average over runs of a per-rank quantity, per rank."""
        if QUANTITIES.get(quantity) != "rank":
            raise ArgumentError(f"{quantity!r} is not a per-rank quantity; use records, "
                                "files or accesses")
        return self.table(quantity, calls=calls).mean(axis=0).rename(f"mean {quantity}")


def read_traces(runs: Union[Sequence[Any], Mapping[str, Any]], format: Optional[str] = None, *,
                labels: Optional[Sequence[str]] = None,
                metadata: Optional[Union[pd.DataFrame, Mapping[str, Mapping[str, Any]]]] = None,
                jobs: Optional[int] = None, client: Any = None, args: bool = True,
                **options: Any) -> TraceEnsemble:
    """Read several traced runs into a :class:`TraceEnsemble`.

    Parameters
    ----------
    runs : list of paths, or dict label -> path
        Trace folders or files (any trace format; I/O questions need I/O calls).
    format : str, optional
        The trace format; sniffed per run when omitted.
    labels : list of str, optional
        Run labels (default: the dict's keys, else each path as given).
    metadata : DataFrame or dict label -> dict, optional
        User columns for the ``metadata`` table (indexed by label), beside the
        ``path``, ``format``, ``version``, ``ranks`` and ``records`` of each run.
    jobs : int, optional
        Worker processes (-1: one per core): runs in parallel, or the ranks of
        each run when there are fewer runs than workers.
    client : distributed.Client, optional
        Read one run per Dask task on this client instead.
    args : bool
        Keep each call's argument text (``args`` column).
    **options
        The decoder's options (Recorder: ``cwd``).

    Examples
    --------
    >>> import tempfile
    >>> from graphframe_readers.testing.writers.recorder import RecorderTraceWriter
    >>> w = RecorderTraceWriter(ranks=1)
    >>> w.call(0, "write", ["/d/a", "%p", "8"], 0, 5)
    >>> te = read_traces([w.write(tempfile.mkdtemp())], labels=["base"])
    >>> te.runs, int(te.table("calls").loc["base", "write"])
    (['base'], 1)
    """
    if isinstance(runs, Mapping):
        paths = list(runs.values())
        names = list(runs) if labels is None else list(labels)
    else:
        paths = list(runs)
        names = [os.fspath(p) if isinstance(p, (str, os.PathLike)) else str(p)
                 for p in paths] if labels is None else list(labels)
    if len(names) != len(paths) or len(set(names)) != len(names):
        raise ArgumentError(f"{len(names)} labels for {len(paths)} runs: give one distinct "
                            "label per run")
    results = read_runs(paths, format, jobs=jobs, client=client, args=args, **options)
    views = {name: IOView(calls, defs) for name, (calls, defs) in zip(names, results)}
    rows = {}
    for name, path, (calls, defs) in zip(names, paths, results):
        meta = defs.metadata
        rows[name] = {"path": os.fspath(path) if isinstance(path, (str, os.PathLike))
                      else str(path), "format": meta.get("format"),
                      "version": meta.get("version"),
                      "ranks": len(views[name].ranks), "records": len(calls)}
    table = pd.DataFrame.from_dict(rows, orient="index")
    if metadata is not None:
        user = metadata if isinstance(metadata, pd.DataFrame) else \
            pd.DataFrame.from_dict(dict(metadata), orient="index")
        table = table.join(user, how="left")
    return TraceEnsemble(views, table)

