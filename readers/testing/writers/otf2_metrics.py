"""OTF2 traces with metric events (PAPI-like counters and a user metric), for tests.

Needs the optional ``otf2`` package. Per rank: ``main`` > ``compute``, with a
metric event at each enter and leave of one class of two members
(``PAPI_TOT_INS``, uint64, unit ``#``; ``mem_used``, double, ``bytes``) and,
inside ``compute``, one of a signed user metric (``temperature``, int64,
``C``). Times in ns.

Examples
--------
>>> import tempfile, pytest
>>> _ = pytest.importorskip("otf2")
>>> write_metric_trace(tempfile.mkdtemp(), ranks=1).endswith("traces.otf2")
True
"""

from __future__ import annotations

import os


def write_metric_trace(folder: str, ranks: int = 2) -> str:
    """Write the trace; returns the anchor file path."""
    import otf2  # optional dependency
    from otf2.enums import MetricMode, MetricType, Paradigm, RegionRole, Type

    with otf2.writer.open(folder, timer_resolution=1_000_000_000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("machine")
        main = defs.region("main", region_role=RegionRole.FUNCTION, paradigm=Paradigm.USER)
        compute = defs.region("compute", region_role=RegionRole.FUNCTION,
                              paradigm=Paradigm.USER)
        ins = defs.metric_member("PAPI_TOT_INS", "instructions completed", MetricType.PAPI,
                                 MetricMode.ACCUMULATED_START, Type.UINT64, unit="#")
        mem = defs.metric_member("mem_used", "resident memory", MetricType.USER,
                                 MetricMode.ABSOLUTE_POINT, Type.DOUBLE, unit="bytes")
        temp = defs.metric_member("temperature", "core temperature", MetricType.USER,
                                  MetricMode.ABSOLUTE_POINT, Type.INT64, unit="C")
        both = defs.metric_class([ins, mem])
        alone = defs.metric_class([temp])
        for r in range(ranks):
            group = defs.location_group(f"MPI Rank {r}", system_tree_parent=node)
            w = trace.event_writer_from_location(defs.location("Master thread", group=group))
            t = 1000 * (r + 1)
            w.enter(t, main)
            w.metric(t, both, [100 * (r + 1), 1.5e6])
            w.enter(t + 10, compute)
            w.metric(t + 10, both, [200 * (r + 1), 2.5e6])
            w.metric(t + 50, alone, [-5 - r])
            w.leave(t + 90, compute)
            w.metric(t + 90, both, [900 * (r + 1), 2.0e6])
            w.leave(t + 100, main)
    return os.path.join(folder, "traces.otf2")
