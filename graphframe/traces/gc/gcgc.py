"""GCGC's column names for the GC view's events (a GCGC notebook's code runs on them).

GCGC (apple/GCGC) parses a log into one DataFrame with the columns below;
:func:`gcgc_frame` gives the same columns from our events, one row per
pause, concurrent phase, collection line and safepoint (GCGC's rows), plus
the metaspace rows as ``UsedMetaspaceAfterGCWithUnit``:

=====================================  ==========================================
GCGC column                            from
=====================================  ==========================================
DateTime                               ``datetime`` as logged (ISO text) or None
Time, TimeUnit                         ``time`` in seconds, ``"s"``
Other fields                           ``[tags]`` when logged
GCIndex                                ``gc_id`` (None for -1)
Generation                             `` Y:``/`` O:`` (generational ZGC prefixes)
EventType                              ``Pause``, ``Concurrent``, the collection
                                       name (``Garbage Collection``, ``Major
                                       Collection``...), ``Safepoint``, or the
                                       first word of a phase
EventName                              the rest of the name (``Young``, ``Mark Start``)
AdditionalEventInfo                    ``info`` followed by a space, as GCGC keeps it
HeapBeforeGC, HeapAfterGC, MaxHeapsize ``heap_*`` in MB
Duration_milliseconds                  ``duration`` in ms
HeapPercentFull                        ``heap_after_pct``
SafepointName                          ``name`` of a safepoint
TimeFromLastSafepoint_ns ...           the safepoint columns in ns
TotalApplicationThreadPauseTime_seconds, TimeToStopApplication_seconds  (JDK 11 lines)
UsedMetaspaceAfterGCWithUnit           metaspace ``heap_after`` as ``"<n>K"``
TimeFromStart_seconds                  ``time``
=====================================  ==========================================
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: GCGC's 22 columns (src/parse_log_file.py), then the one its reader adds
GCGC_COLUMNS = (
    "DateTime", "Time", "TimeUnit", "Other fields", "GCIndex", "Generation", "EventType",
    "EventName", "AdditionalEventInfo", "HeapBeforeGC", "HeapAfterGC", "MaxHeapsize",
    "Duration_milliseconds", "HeapPercentFull", "SafepointName", "TimeFromLastSafepoint_ns",
    "TimeToReachSafepoint_ns", "AtSafepoint_ns", "TotalTimeAtSafepoint_ns",
    "TotalApplicationThreadPauseTime_seconds", "TimeToStopApplication_seconds",
    "UsedMetaspaceAfterGCWithUnit", "TimeFromStart_seconds")

_MB = 1024.0 * 1024.0


def _split_name(name: str, etype: str):
    if etype == "collection" and name in ("Young Generation", "Old Generation"):
        return "Concurrent", name  # not a GCGC event type; kept recognisable
    if etype == "collection":
        return name, None
    if etype == "pause" and name.startswith("Pause"):
        return "Pause", name[5:].strip() or None
    if etype == "concurrent" and name.startswith("Concurrent"):
        return "Concurrent", name[10:].strip() or None
    first, _, rest = name.partition(" ")
    return first, rest or None


def gcgc_frame(ev: pd.DataFrame) -> pd.DataFrame:
    """GCGC's DataFrame (see the module docs) from the GC view's events."""
    et = ev["event_type"].astype(object)
    keep = et.isin(["pause", "concurrent", "collection", "safepoint"]) | \
        ((et == "metaspace") & (ev["name"].astype(object) == "Metaspace"))
    e = ev[keep.to_numpy()]
    etype = e["event_type"].astype(object).to_numpy()
    names = e["name"].astype(object).to_numpy()
    pairs = [_split_name(str(n), t) if t != "safepoint" else ("Safepoint", None)
             for n, t in zip(names, etype)]
    is_sp = etype == "safepoint"
    is_meta = etype == "metaspace"
    jdk11 = is_sp & e["at_safepoint"].isna().to_numpy()  # JDK 16+ lines always have it
    ns = 1e9

    def sp(col, scale, mask):
        v = e[col].to_numpy(dtype=float) * scale
        return np.where(mask, v, np.nan)

    dt = e["datetime"]
    out = pd.DataFrame({
        "DateTime": np.where(dt.notna(), dt.dt.strftime("%Y-%m-%dT%H:%M:%S.%f").str[:-3]
                             + "+0000", None),
        "Time": e["time"].to_numpy(),
        "TimeUnit": "s",
        "Other fields": [f"[{t}]" if isinstance(t, str) else "" for t in
                         e["tags"].astype(object)],
        "GCIndex": pd.array([int(g) if g >= 0 else None for g in e["gc_id"]], dtype="Int64"),
        "Generation": [{"Y": " Y:", "O": " O:"}.get(p) for p in e["prefix"].astype(object)],
        "EventType": [None if m else p[0] for p, m in zip(pairs, is_meta)],
        "EventName": [None if m else p[1] for p, m in zip(pairs, is_meta)],
        "AdditionalEventInfo": [None if (m or s) else (f"{i} " if isinstance(i, str) else "")
                                for i, m, s in zip(e["info"].astype(object), is_meta, is_sp)],
        "HeapBeforeGC": np.where(is_meta | is_sp, np.nan, e["heap_before"] / _MB),
        "HeapAfterGC": np.where(is_meta | is_sp, np.nan, e["heap_after"] / _MB),
        "MaxHeapsize": np.where(is_meta | is_sp, np.nan, e["heap_capacity"] / _MB),
        "Duration_milliseconds": np.where(is_meta | is_sp, np.nan, e["duration"] * 1e3),
        "HeapPercentFull": e["heap_after_pct"].to_numpy(),
        "SafepointName": np.where(is_sp & ~jdk11, names, None),
        "TimeFromLastSafepoint_ns": sp("time_since_last", ns, is_sp & ~jdk11),
        "TimeToReachSafepoint_ns": sp("time_to_reach", ns, is_sp & ~jdk11),
        "AtSafepoint_ns": sp("at_safepoint", ns, is_sp & ~jdk11),
        "TotalTimeAtSafepoint_ns": sp("total", ns, is_sp & ~jdk11),
        "TotalApplicationThreadPauseTime_seconds": sp("total", 1.0, jdk11),
        "TimeToStopApplication_seconds": sp("time_to_reach", 1.0, jdk11),
        "UsedMetaspaceAfterGCWithUnit": [f"{round(v / 1024)}K" if m and v == v else None
                                         for v, m in zip(e["heap_after"], is_meta)],
        "TimeFromStart_seconds": e["time"].to_numpy(),
    })
    return out.reset_index(drop=True)
