"""OTF2 metric events as COUNTER events: member names, units, values of each type, region."""

from __future__ import annotations

import pytest

import graphframe as gf

pytest.importorskip("otf2", reason="the OTF2 decoder needs the optional otf2 package")
from graphframe_readers.testing.writers.otf2_metrics import write_metric_trace  # noqa: E402


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    return gf.read_trace(write_metric_trace(str(tmp_path_factory.mktemp("m") / "t"), ranks=2))


def test_metric_values_names_and_units(trace):
    c = trace.counters()
    r1 = c[c["rank"] == 1]
    assert r1[["time", "metric", "value", "unit", "region"]].values.tolist() == [
        [2000, "PAPI_TOT_INS", 200.0, "#", "main"], [2000, "mem_used", 1.5e6, "bytes", "main"],
        [2010, "PAPI_TOT_INS", 400.0, "#", "compute"],
        [2010, "mem_used", 2.5e6, "bytes", "compute"],
        [2050, "temperature", -6.0, "C", "compute"],  # a signed value
        [2090, "PAPI_TOT_INS", 1800.0, "#", "main"], [2090, "mem_used", 2.0e6, "bytes", "main"]]
    meta = trace.metadata["metrics"]
    assert meta["PAPI_TOT_INS"] == {"unit": "#", "description": "instructions completed",
                                    "type": "papi", "mode": "accumulated_start",
                                    "base": "decimal", "exponent": 0}
    assert meta["temperature"]["type"] == "user" and meta["mem_used"]["mode"] == "absolute_point"


def test_counter_events_in_the_events_table(trace):
    ev = trace.events
    counters = ev[ev["kind"] == "counter"]
    assert len(counters) == 14 and counters["name"].astype(str).nunique() == 3
    # the calls are unchanged by the samples between them
    calls = ev[ev["kind"] == "enter"]
    assert calls[["name", "duration"]].astype(str).values.tolist() == [
        ["main", "100.0"], ["compute", "80.0"]] * 2
    # the call tree ignores the samples
    assert trace.to_graphframe().dataframe["time (inc)"].max() == pytest.approx(100e-9)
