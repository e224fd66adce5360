"""The child-process side of the runner: time one side of one case at one size.

The runner starts a fresh interpreter per measurement, so the peak resident
memory belongs to that case alone. The child builds the inputs the case
needs (untimed), then for each repeat: collects garbage, hands freed heap
memory back to the OS (``malloc_trim``, so reused arenas cannot hide an
operation's cost), resets the kernel's peak-RSS counter
(``/proc/self/clear_refs``), runs the operation, and reads the peak back
(``VmHWM``). ``peak_kb`` is the largest resident size seen during a run
(inputs included); ``delta_kb`` is how far above the resident size before
the run it went (what the operation itself needed).
Repeats stop once their total passes the time budget; a first run longer
than the budget is interrupted (``SIGALRM``) and reported as timed out.
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource
import signal
import time
from typing import Any, Dict, Optional

from .cases import CASES, Side
from .inputs import Inputs

MARKER = "BENCH-RESULT "


class BudgetExceeded(Exception):
    """A single run took longer than the time budget."""


def memory_kb() -> Dict[str, int]:
    """``rss`` and ``hwm`` (peak) of this process in KiB, from /proc when available."""
    out: Dict[str, int] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    out["rss"] = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    out["hwm"] = int(line.split()[1])
    except OSError:
        pass
    if "hwm" not in out:
        out["hwm"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out.setdefault("rss", out["hwm"])
    return out


def release_free_memory() -> None:
    """Hand freed heap memory back to the OS (glibc), so RSS means memory in use.

    Without it, arrays freed during setup stay in the allocator's arenas and
    the next operation reuses them without raising RSS, hiding its cost.
    """
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def reset_peak() -> bool:
    """Reset the peak-RSS counter to the current size (Linux); False if impossible."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
        return True
    except OSError:
        return False


def side_of(case_name: str, side: str) -> Side:
    """The :class:`Side` named ``side`` (``ours`` or ``hatchet``) of a case."""
    c = CASES[case_name]
    chosen = c.ours if side == "ours" else c.hatchet_side
    if chosen is None:
        raise ValueError(f"case {case_name!r} has no {side} side")
    return chosen


def measure(spec: Dict[str, Any]) -> Dict[str, Any]:
    """Run one measurement described by ``spec`` (see ``benchmarks.run``)."""
    side = side_of(spec["case"], spec["side"])
    inp = Inputs(spec["nodes"], spec["ranks"], spec.get("threads"), spec.get("seed", 0),
                 spec.get("variant", 0.1), spec.get("cache_dir"))
    start = time.perf_counter()
    inp.prepare(side.needs + side.fresh)
    setup = time.perf_counter() - start
    budget: Optional[float] = spec.get("budget")
    times, peaks, deltas = [], [], []
    resettable = True
    timed_out = False
    for i in range(int(spec.get("repeat", 5))):
        if i and side.fresh:
            inp.drop(side.fresh)
            gc.collect()
            inp.prepare(side.fresh)
        gc.collect()
        release_free_memory()
        before = memory_kb()["rss"]
        resettable = reset_peak() and resettable
        alarm = budget is not None and i == 0
        if alarm:
            signal.signal(signal.SIGALRM, _on_alarm)
            signal.alarm(max(1, int(budget + 0.999)))
        t0 = time.perf_counter()
        try:
            result = side.run(inp)
        except BudgetExceeded:
            timed_out = True
        finally:
            if alarm:
                signal.alarm(0)
        elapsed = time.perf_counter() - t0
        peak = memory_kb()["hwm"]
        peaks.append(peak)
        deltas.append(max(peak - before, 0))
        if timed_out:
            break
        times.append(elapsed)
        del result
        if budget is not None and sum(times) + elapsed > budget:
            break
    return {"times": times, "setup_s": setup, "peak_kb": max(peaks), "delta_kb": max(deltas),
            "peak_is_per_run": resettable, "timed_out": timed_out,
            "elapsed_at_timeout": elapsed if timed_out else None,
            "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}


def _on_alarm(signum: int, frame: Any) -> None:
    raise BudgetExceeded()
