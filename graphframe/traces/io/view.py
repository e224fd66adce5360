"""IOView: the I/O questions of one run, on a table with one row per call.

The design these answer (prismio's, for Recorder traces): how many records
(calls) a run has, per rank; calls and time per function (with or without
the functions never called), per rank; file accesses per file, per rank and
in total; the files accessed and how many, per rank; and a filter that
gives a new view. A call is one row of the *call table*
(:mod:`graphframe_readers.traces.call_table`); ``TraceFrame.io`` builds it
from the events table, ``read_traces`` reads it directly. File accesses
follow an access definition (:mod:`.io_access`: ``calls="data"`` by default,
``"all"`` for every call naming a file). Times are seconds.

Examples
--------
>>> import pandas as pd
>>> calls = pd.DataFrame({"rank": [0, 0, 1], "thread": 0, "name": ["open", "write", "stat"],
...                       "start": [0, 5, 0], "end": [4, 9, 1], "duration": [4.0, 4.0, 1.0],
...                       "file": ["/d/a", "/d/a", "/d/a"]})
>>> v = IOView(calls)
>>> v.record_count(), v.record_count(per="rank").tolist()
(3, [2, 1])
>>> v.file_accesses().to_dict(), v.file_accesses(calls="all").to_dict()
({'/d/a': 2}, {'/d/a': 3})
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

from graphframe_readers.traces import Definitions
from graphframe_readers.traces.call_table import CALL, DATA_COLUMNS

from .access import check_calls, is_data_operation

#: names that are streams, not files (left out of file counts unless asked)
STANDARD_STREAMS = ("stdin", "stdout", "stderr")

Per = Optional[str]


class IOView:
    """The per-run I/O analyses over a call table (see the module docs).

    Parameters
    ----------
    calls : pandas.DataFrame
        One row per call: ``rank``, ``name``, ``duration`` (ns), ``file``
        (None/NaN when the call names none), and any other columns.
    definitions : Definitions, optional
        The trace's definitions: its ranks (``per="rank"`` lists every one,
        zeros included) and, in ``metadata["functions"]``, the traced
        function list (the functions of the ``nonzero=False`` answers).
    """

    def __init__(self, calls: pd.DataFrame, definitions: Optional[Definitions] = None) -> None:
        for col in ("name", "file"):  # the analyses work on category codes
            if col in calls.columns and not isinstance(calls[col].dtype, pd.CategoricalDtype):
                calls = calls.assign(**{col: pd.Categorical(
                    calls[col].astype(object).where(calls[col].notna(), None))})
        self.calls = calls
        self.definitions = definitions if definitions is not None else Definitions()

    def __repr__(self) -> str:
        return f"IOView({len(self.calls)} calls, {len(self.ranks)} rank(s))"

    def __len__(self) -> int:
        return len(self.calls)

    # ------------------------------------------------------------------ vocabulary
    @property
    def ranks(self) -> List[int]:
        """Every rank of the run (from the definitions, else the calls), ascending."""
        ranks = set(int(r) for r in self.definitions.ranks) or \
            set(pd.unique(self.calls["rank"]).tolist())
        return sorted(ranks)

    def _rank_codes(self) -> np.ndarray:
        """Per call, the position of its rank in :attr:`ranks`."""
        return np.searchsorted(np.asarray(self.ranks, dtype=np.int64),
                               self.calls["rank"].to_numpy())

    @property
    def functions(self) -> List[str]:
        """The traced functions: the trace's list (Recorder's recorder.mt) or the names seen."""
        listed = self.definitions.metadata.get("functions")
        cat = self.calls["name"].cat
        used = np.unique(cat.codes.to_numpy())
        names = [str(cat.categories[c]) for c in used[used >= 0]]
        if listed:
            return list(dict.fromkeys(list(listed) + sorted(names)))
        return sorted(names)

    # ------------------------------------------------------------------ records
    def record_count(self, per: Per = None) -> Union[int, pd.Series]:
        """Calls recorded: an int, or per rank (``per="rank"``) a Series indexed by rank."""
        if per is None:
            return int(len(self.calls))
        _check_per(per)
        counts = self.calls.groupby("rank", sort=True).size()
        return counts.reindex(self.ranks, fill_value=0).rename("records").rename_axis("rank")

    # ------------------------------------------------------------------ functions
    def function_count(self, per: Per = None, nonzero: bool = True) -> Union[pd.Series, pd.DataFrame]:
        """Calls per function: a Series by function, or per rank a DataFrame (rank x function).
        ``nonzero=False`` lists every traced function (zeros included), in the trace's order."""
        return self._per_function(np.ones(len(self.calls)), per, nonzero, "calls", np.int64)

    def function_time(self, per: Per = None, nonzero: bool = True) -> Union[pd.Series, pd.DataFrame]:
        """Time (s) per function, as :meth:`function_count`."""
        seconds = self.calls["duration"].fillna(0).to_numpy(dtype=float) / 1e9
        return self._per_function(seconds, per, nonzero, "time", np.float64)

    def total_function_time(self, per: Per = None) -> Union[float, pd.Series]:
        """Time (s) in all calls: a float, or per rank a Series."""
        seconds = self.calls["duration"].fillna(0) / 1e9
        if per is None:
            return float(seconds.sum())
        _check_per(per)
        out = seconds.groupby(self.calls["rank"]).sum()
        return out.reindex(self.ranks, fill_value=0.0).rename("time").rename_axis("rank")

    def _per_function(self, values: np.ndarray, per: Per, nonzero: bool, label: str,
                      dtype: Any) -> Union[pd.Series, pd.DataFrame]:
        cat = self.calls["name"].cat
        codes = cat.codes.to_numpy().astype(np.int64)
        categories = [str(c) for c in cat.categories]
        if nonzero:
            used = np.flatnonzero(np.bincount(codes + 1, minlength=len(categories) + 1)[1:])
            functions = sorted(categories[c] for c in used)
        else:
            functions = self.functions
        index = {f: i for i, f in enumerate(functions)}
        to_func = np.array([index.get(c, -1) for c in categories] + [-1], dtype=np.int64)
        code = to_func[codes]
        ok = code >= 0
        if ok.all():  # every call counts: no copies
            ok = slice(None)
        if per is None:
            total = np.bincount(code[ok], weights=values[ok], minlength=len(functions))
            return pd.Series(total.astype(dtype), index=pd.Index(functions, name="function"),
                             name=label)
        _check_per(per)
        ranks = self.ranks
        flat = np.bincount(self._rank_codes()[ok] * len(functions) + code[ok],
                           weights=values[ok], minlength=len(ranks) * len(functions))
        table = flat.reshape(len(ranks), len(functions)).astype(dtype)
        return pd.DataFrame(table, index=pd.Index(ranks, name="rank"),
                            columns=pd.Index(functions, name="function"))

    # ------------------------------------------------------------------ files
    def _access_mask(self, calls: str) -> np.ndarray:
        check_calls(calls)
        named = self.calls["file"].cat.codes.to_numpy() >= 0
        if calls == "data":
            cat = self.calls["name"].cat
            data = np.append(is_data_operation(cat.categories), False)
            named &= data[cat.codes.to_numpy()]
        return named

    def accesses(self, calls: str = "data") -> pd.DataFrame:
        """The calls that access a file under the access definition ``calls``."""
        return self.calls[self._access_mask(calls)]

    def file_accesses(self, per: Per = None, calls: str = "data") -> Union[pd.Series, pd.DataFrame]:
        """Accesses per file: a Series by file, or per rank a DataFrame (rank x file)."""
        mask = self._access_mask(calls)
        cat = self.calls["file"].cat
        codes = cat.codes.to_numpy()[mask].astype(np.int64)
        used = np.flatnonzero(np.bincount(codes, minlength=len(cat.categories)))
        names = [str(cat.categories[c]) for c in used]
        order = np.argsort(np.asarray(names, dtype=object), kind="stable") if names else used
        pos = np.full(len(cat.categories), -1, dtype=np.int64)
        pos[used[order]] = np.arange(len(used))
        files = [names[i] for i in order]
        col = pos[codes]
        if per is None:
            return pd.Series(np.bincount(col, minlength=len(files)),
                             index=pd.Index(files, name="file"), name="accesses")
        _check_per(per)
        ranks = self.ranks
        flat = np.bincount(self._rank_codes()[mask] * len(files) + col,
                           minlength=len(ranks) * len(files))
        return pd.DataFrame(flat.reshape(len(ranks), len(files)),
                            index=pd.Index(ranks, name="rank"),
                            columns=pd.Index(files, name="file"))

    def total_file_accesses(self, per: Per = None, calls: str = "data") -> Union[int, pd.Series]:
        """All file accesses: an int, or per rank a Series."""
        mask = self._access_mask(calls)
        if per is None:
            return int(mask.sum())
        _check_per(per)
        counts = np.bincount(self._rank_codes()[mask], minlength=len(self.ranks))
        return pd.Series(counts, index=pd.Index(self.ranks, name="rank"), name="accesses")

    def files(self, per: Per = None, calls: str = "data",
              streams: bool = True) -> Union[List[str], Dict[int, List[str]]]:
        """The files accessed (sorted): a list, or per rank a dict rank -> list.
        ``streams=False`` leaves out stdin/stdout/stderr."""
        table = self.file_accesses(per="rank", calls=calls)
        if not streams:
            table = table.loc[:, ~table.columns.isin(STANDARD_STREAMS)]
        if per is None:
            return [f for f in table.columns if table[f].any()]
        _check_per(per)
        columns = np.asarray(table.columns, dtype=object)
        return {int(r): columns[row > 0].tolist() for r, row in
                zip(table.index, table.to_numpy())}

    def file_count(self, per: Per = None, calls: str = "data",
                   streams: bool = False) -> Union[int, pd.Series]:
        """How many files were accessed (stdin/stdout/stderr left out unless ``streams``)."""
        found = self.files(per, calls, streams)
        if per is None:
            return len(found)
        return pd.Series({r: len(f) for r, f in found.items()}, name="files").rename_axis("rank")

    # ------------------------------------------------------------------ selection
    def filter(self, mask: Any) -> "IOView":
        """A new view of the selected calls: a boolean mask, or a callable taking the call
        table and returning one (vectorised; wrap a per-row test in ``table.apply``)."""
        if callable(mask):
            mask = mask(self.calls)
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (len(self.calls),):
            raise ValueError(f"the mask has {mask.shape[0] if mask.ndim else 0} values for "
                             f"{len(self.calls)} calls")
        return IOView(self.calls[mask].reset_index(drop=True), self.definitions)


def _check_per(per: Per) -> None:
    if per != "rank":
        raise ValueError(f"per={per!r}: use None (the whole run) or 'rank'")


def calls_from_events(events: pd.DataFrame) -> pd.DataFrame:
    """The call table of an events table: each ENTER row with its duration and the file,
    bytes, offset... of the data event that belongs to it (the event right after it in
    its stream, at the call's start, as decoders emit them)."""
    kind = events["kind"].astype(str).to_numpy()
    enter = np.flatnonzero(kind == "enter")
    data = np.flatnonzero(~np.isin(kind, ["enter", "leave", "instant", "counter"]))
    out = pd.DataFrame({
        "rank": events["rank"].to_numpy()[enter], "thread": events["thread"].to_numpy()[enter],
        "name": events["name"].to_numpy()[enter], "start": events["time"].to_numpy()[enter]})
    duration = events["duration"].to_numpy()[enter]
    end = np.where(np.isnan(duration), -1,
                   out["start"].to_numpy() + np.nan_to_num(duration).astype(np.int64))
    if "end" in events.columns:  # the recorded end where the decoder gave one (Recorder)
        recorded = events["end"].to_numpy()[enter]
        end = np.where(recorded >= 0, recorded, end)
    out["end"] = end
    out["duration"] = np.where(end >= 0, end - out["start"].to_numpy(), np.nan)
    row_of = np.full(len(events), -1, dtype=np.int64)
    row_of[enter] = np.arange(len(enter))
    # a data event belongs to the ENTER just before it in its stream, at the same time
    marks = np.where(kind == "enter", np.arange(len(events)), -1)
    last = np.maximum.accumulate(marks)[data] if len(events) else marks
    rank, thread, time = (events[c].to_numpy() for c in ("rank", "thread", "time"))
    at = np.maximum(last, 0)
    same = (last >= 0) & (rank[at] == rank[data]) & (thread[at] == thread[data]) & \
        (time[at] == time[data])
    owner = np.where(same, row_of[at], -1)
    o, d = owner[same], data[same]
    kinds = np.full(len(enter), CALL, dtype=object)
    kinds[o] = kind[d]
    out["kind"] = kinds
    files = (events["file"].astype(object).to_numpy() if "file" in events.columns
             else np.full(len(events), None, dtype=object))
    f = files[enter].copy()
    df = files[d]
    f[o] = np.where(pd.notna(df), df, f[o])
    out["file"] = pd.Series(f, dtype=object).where(pd.notna(f), None)
    for col in DATA_COLUMNS:
        values = np.full(len(enter), -1, dtype=np.int64)
        if col in events.columns:
            src = events[col].to_numpy()
            values = src[enter].astype(np.int64) if col == "fd" else values
            values[o] = np.where(src[d] >= 0, src[d], values[o]) if col == "fd" else src[d]
        out[col] = values
    if "args" in events.columns:
        out["args"] = events["args"].to_numpy()[enter]
    return out
