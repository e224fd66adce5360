"""Recorder analyses under the names of prismio's design (``RecorderDataFrame``,
``MultiRecorderDFHandler``), for its users; a thin layer over
:class:`~graphframe.traces.io.view.IOView` and :class:`~graphframe.traces.TraceEnsemble`.

Return types are the design's: ints and floats, lists indexed by rank (or by
function id: the position in the trace's function list, ``recorder.mt``),
dicts keyed by function or file name, and DataFrames indexed by log
directory x rank or function. Differences from prismio, on purpose:

- file accesses count the data operations (:mod:`graphframe.traces.io.access`),
  not every call naming a file; ``calls="all"`` on :class:`IOView` gives those;
- a relative file name is resolved against the recorded working directory
  (``cwd=``), not kept apart from the same absolute path;
- Recorder 2.4/2.5 traces read too (prismio reads 2.2 through recorder-viz).

Examples
--------
>>> import tempfile
>>> from graphframe_readers.testing.writers.recorder import RecorderTraceWriter
>>> w = RecorderTraceWriter(ranks=2)
>>> w.call(0, "open", ["/d/a", "66", "420"], 0, 4)
>>> w.call(0, "write", ["/d/a", "%p", "8"], 5, 9)
>>> w.call(1, "stat", ["/d/a", "%p"], 0, 2)
>>> rdf = RecorderDataFrame.from_recorder(w.write(tempfile.mkdtemp()))
>>> rdf.get_record_count(), rdf.get_record_count_each_rank(), rdf.get_file_access_count()
(3, [2, 1], {'/d/a': 2})
>>> rdf.get_nonzero_function_count()
{'open': 1, 'stat': 1, 'write': 1}
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

from .traces.io.view import IOView
from .traces.read_many import read_calls, read_runs

__all__ = ["MultiRecorderDFHandler", "RecorderDataFrame"]


class RecorderDataFrame:
    """One Recorder run: a call table (:meth:`get_data_frame`) and the design's questions."""

    def __init__(self, view: IOView, log_dir: str = "") -> None:
        self.view = view
        self.log_dir = log_dir

    @staticmethod
    def from_recorder(log_dir: Any, **options: Any) -> "RecorderDataFrame":
        """Read a Recorder trace folder (format 2.2, 2.4 or 2.5); options as ``read_trace``
        (``cwd=``, ``jobs=``, ``args=``)."""
        calls, defs = read_calls(log_dir, "recorder", **options)
        return RecorderDataFrame(IOView(calls, defs), os.fspath(log_dir))

    def __repr__(self) -> str:
        return f"RecorderDataFrame({self.log_dir!r}, {len(self.view)} records)"

    # ------------------------------------------------------------------ the table
    @property
    def np(self) -> int:
        """Number of ranks."""
        return len(self.view.ranks)

    @property
    def func_id_to_name(self) -> List[str]:
        """The trace's function list (function id = position)."""
        return self.view.functions

    def get_data_frame(self) -> pd.DataFrame:
        """One row per record, sorted by rank and start: rank, func_id, func_name, tstart,
        tend, telapsed (s since the trace start), arg_count, args, file_name, fd."""
        c = self.view.calls
        start = self.view.definitions.metadata.get("start_time")
        origin = int(start) if start is not None else (int(c["start"].min()) if len(c) else 0)
        ids = {f: i for i, f in reversed(list(enumerate(self.func_id_to_name)))}
        names = c["name"].astype(str)
        args = c["args"] if "args" in c.columns else pd.Series([""] * len(c), index=c.index)
        arg_lists = [a.split(" ") if isinstance(a, str) and a else [] for a in args]
        return pd.DataFrame({
            "rank": c["rank"].to_numpy(), "func_id": names.map(ids).to_numpy(),
            "func_name": names.to_numpy(), "tstart": (c["start"] - origin).to_numpy() / 1e9,
            "tend": (c["end"] - origin).to_numpy() / 1e9,
            "telapsed": c["duration"].to_numpy() / 1e9,
            "arg_count": [len(a) for a in arg_lists], "args": arg_lists,
            "file_name": c["file"].astype(object).where(c["file"].notna(), None).to_numpy(),
            "fd": c["fd"].to_numpy() if "fd" in c.columns else -1})

    def filter(self, fn: Callable[[pd.Series], bool]) -> "RecorderDataFrame":
        """A new RecorderDataFrame of the records (rows of :meth:`get_data_frame`) for which
        ``fn(row)`` is true (one call per row; for large traces filter ``view`` with a
        vectorised mask)."""
        df = self.get_data_frame()
        mask = df.apply(fn, axis=1).to_numpy(dtype=bool) if len(df) else np.zeros(0, bool)
        return RecorderDataFrame(self.view.filter(mask), self.log_dir)

    # ------------------------------------------------------------------ records
    def get_record_count(self) -> int:
        return self.view.record_count()

    def get_record_count_each_rank(self) -> List[int]:
        return [int(x) for x in self.view.record_count(per="rank")]

    # ------------------------------------------------------------------ functions
    def get_nonzero_function_count(self) -> Dict[str, int]:
        return {k: int(v) for k, v in self.view.function_count().items()}

    def get_function_count(self) -> List[int]:
        return self._by_id(self.view.function_count(nonzero=False))

    def get_nonzero_function_count_each_rank(self) -> List[Dict[str, int]]:
        table = self.view.function_count(per="rank")
        return [{k: int(v) for k, v in row.items() if v} for _, row in table.iterrows()]

    def get_function_count_each_rank(self) -> List[List[int]]:
        table = self.view.function_count(per="rank", nonzero=False)
        return [self._by_id(row) for _, row in table.iterrows()]

    def get_total_function_time(self) -> float:
        return self.view.total_function_time()

    def get_total_function_time_each_rank(self) -> List[float]:
        return [float(x) for x in self.view.total_function_time(per="rank")]

    def get_nonzero_function_time(self) -> Dict[str, float]:
        return {k: float(v) for k, v in self.view.function_time().items()}

    def get_function_time(self) -> List[float]:
        return self._by_id(self.view.function_time(nonzero=False), float)

    def get_nonzero_function_time_each_rank(self) -> List[Dict[str, float]]:
        table = self.view.function_time(per="rank")
        counts = self.view.function_count(per="rank")
        return [{k: float(v) for k, v in row.items() if counts.loc[rank, k]}
                for rank, row in table.iterrows()]

    def get_function_time_each_rank(self) -> List[List[float]]:
        table = self.view.function_time(per="rank", nonzero=False)
        return [self._by_id(row, float) for _, row in table.iterrows()]

    def _by_id(self, by_name: pd.Series, cast: Callable = int) -> list:
        """A per-function Series as a list indexed by function id (repeated names: the first)."""
        seen = set()
        out = []
        for name in self.func_id_to_name:
            out.append(cast(by_name.get(name, 0)) if name not in seen else cast(0))
            seen.add(name)
        return out

    # ------------------------------------------------------------------ files
    def get_file_access_count(self) -> Dict[str, int]:
        return {k: int(v) for k, v in self.view.file_accesses().items()}

    def get_file_access_count_each_rank(self) -> List[Dict[str, int]]:
        table = self.view.file_accesses(per="rank")
        return [{k: int(v) for k, v in row.items() if v} for _, row in table.iterrows()]

    def get_total_file_access_count(self) -> int:
        return self.view.total_file_accesses()

    def get_total_file_access_count_each_rank(self) -> List[int]:
        return [int(x) for x in self.view.total_file_accesses(per="rank")]

    def get_files(self) -> List[str]:
        return self.view.files()

    def get_files_each_ranks(self) -> List[List[str]]:
        return list(self.view.files(per="rank").values())

    def get_total_file_count(self) -> int:
        return self.view.file_count()

    def get_total_file_count_each_rank(self) -> List[int]:
        return [int(x) for x in self.view.file_count(per="rank")]


class MultiRecorderDFHandler:
    """Several runs: tables indexed by log directory x rank or function (and transposes).

    Parameters
    ----------
    recorder_dfs : list of RecorderDataFrame, or of trace folders
        Folders are read with :func:`graphframe.read_traces` (``jobs=``, ``client=``).
    """

    def __init__(self, recorder_dfs: Sequence[Union[RecorderDataFrame, Any]], *,
                 jobs: Optional[int] = None, client: Any = None, **options: Any) -> None:
        items = list(recorder_dfs)
        paths = [x for x in items if not isinstance(x, RecorderDataFrame)]
        read = iter(read_runs(paths, "recorder", jobs=jobs, client=client, **options)) \
            if paths else iter(())
        self.recorder_dfs: List[RecorderDataFrame] = []
        for x in items:
            if isinstance(x, RecorderDataFrame):
                self.recorder_dfs.append(x)
            else:
                calls, defs = next(read)
                self.recorder_dfs.append(RecorderDataFrame(IOView(calls, defs), os.fspath(x)))
        self.log_dirs = [r.log_dir for r in self.recorder_dfs]

    def get_log_dirs(self) -> List[str]:
        return list(self.log_dirs)

    def _per_rank(self, values: List[List[float]]) -> pd.DataFrame:
        width = max((len(v) for v in values), default=0)
        return pd.DataFrame([list(v) + [np.nan] * (width - len(v)) for v in values],
                            index=pd.Index(self.log_dirs, name="log_dir"),
                            columns=pd.RangeIndex(width, name="rank"))

    def _per_function(self, values: List[pd.Series]) -> pd.DataFrame:
        names: Dict[str, None] = {}
        for r in self.recorder_dfs:
            names.update(dict.fromkeys(r.func_id_to_name))
        table = pd.DataFrame(values, index=pd.Index(self.log_dirs, name="log_dir"))
        return table.reindex(columns=list(names)).fillna(0).rename_axis(columns="function")

    def get_record_count_aggregated_by_logs(self) -> pd.DataFrame:
        return self._per_rank([r.get_record_count_each_rank() for r in self.recorder_dfs])

    def get_record_count_aggregated_by_ranks(self) -> pd.DataFrame:
        return self.get_record_count_aggregated_by_logs().transpose()

    def get_average_record_count_each_rank(self) -> List[float]:
        return [float(x) for x in self.get_record_count_aggregated_by_logs().mean()]

    def get_file_count_aggregated_by_logs(self) -> pd.DataFrame:
        return self._per_rank([r.get_total_file_count_each_rank() for r in self.recorder_dfs])

    def get_file_count_aggregated_by_ranks(self) -> pd.DataFrame:
        return self.get_file_count_aggregated_by_logs().transpose()

    def get_function_count_aggregated_by_logs(self) -> pd.DataFrame:
        return self._per_function([r.view.function_count() for r in self.recorder_dfs]) \
            .astype(np.int64)

    def get_function_count_aggregated_by_functions(self) -> pd.DataFrame:
        return self.get_function_count_aggregated_by_logs().transpose()

    def get_nonzero_function_count_aggregated_by_functions(self) -> pd.DataFrame:
        df = self.get_function_count_aggregated_by_functions()
        return df[df.sum(axis=1) > 0]

    def get_nonzero_function_count_aggregated_by_logs(self) -> pd.DataFrame:
        return self.get_nonzero_function_count_aggregated_by_functions().transpose()

    def get_function_time_aggregated_by_logs(self) -> pd.DataFrame:
        return self._per_function([r.view.function_time() for r in self.recorder_dfs])

    def get_function_time_aggregated_by_functions(self) -> pd.DataFrame:
        return self.get_function_time_aggregated_by_logs().transpose()

    def get_nonzero_function_time_aggregated_by_functions(self) -> pd.DataFrame:
        df = self.get_function_time_aggregated_by_functions()
        counts = self.get_function_count_aggregated_by_functions()
        return df[counts.sum(axis=1) > 0]

    def get_nonzero_function_time_aggregated_by_logs(self) -> pd.DataFrame:
        return self.get_nonzero_function_time_aggregated_by_functions().transpose()
