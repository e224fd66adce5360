"""The real GC logs of ../shared/data/traces/jvm-gc against an independent plain-string parse.

The check below reads the raw lines with ``str`` methods only (no regular
expression, nothing from the reader): for every ``GC(n) Pause ...`` line
that ends with a duration, the duration and the heap before/after figures;
and the safepoint lines. Every log must be read with all of its GC lines
understood, and give exactly those pauses and safepoints.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import List, Tuple

import numpy as np
import pandas as pd
import pytest

import graphframe

UNIT = {"B": 1.0, "K": 1024.0, "M": 1024.0 ** 2, "G": 1024.0 ** 3}


def _folder(shared: Path) -> Path:
    folder = shared / "traces" / "jvm-gc"
    if not folder.is_dir():
        pytest.skip(f"no JVM GC logs at {folder}")
    return folder


def logs(shared: Path) -> List[List[Path]]:
    """Each log as its list of files (the rotated ZGC pair as one)."""
    folder = _folder(shared)
    files = sorted((folder / "logs").glob("*.log")) + sorted(
        p for p in (folder / "gcgc-datasets").iterdir() if ".log" in p.name)
    rotated = [p for p in files if p.name.startswith("ZGC.log.")]
    return [[p] for p in files if p not in rotated] + ([sorted(rotated)] if rotated else [])


def _figure(text: str) -> float:
    text = text.split("(")[0]
    return float(text[:-1]) * UNIT[text[-1]]


def message(line: str) -> str:
    """The text after the leading ``[...]`` decorators of a line."""
    i = 0
    while line.startswith("[", i) and "]" in line[i:]:
        i = line.index("]", i) + 1
    return line[i:].lstrip(" ") if i else ""


def plain_pauses(files: List[Path]) -> List[Tuple[float, float, float]]:
    """(duration s, heap before, heap after) of every pause line, plain string handling."""
    out = []
    for path in files:
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            msg = message(raw)
            if not msg.startswith("GC(") or ") " not in msg:
                continue
            rest = msg.split(") ", 1)[1]
            if rest[:3] in ("Y: ", "O: "):
                rest = rest[3:]
            parts = rest.split(" ")
            if not rest.startswith("Pause ") or not parts[-1].endswith("ms"):
                continue
            duration = float(parts[-1][:-2]) / 1000.0
            before = after = float("nan")
            if "->" in parts[-2]:
                b, a = parts[-2].split("->")
                before, after = _figure(b), _figure(a)
            out.append((duration, before, after))
    return out


def plain_safepoints(files: List[Path]) -> int:
    n = 0
    for path in files:
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            msg = message(raw)
            n += msg.startswith('Safepoint "') or msg.startswith(
                "Total time for which application threads were stopped:")
    return n


def _ids(shared_data_dir):
    try:
        return [f[0].name for f in logs(shared_data_dir)]
    except pytest.skip.Exception:
        return []


SHARED = Path(__file__).resolve().parents[4].parent / "shared" / "data"


@pytest.mark.parametrize("files", logs(SHARED) if (SHARED / "traces" / "jvm-gc").is_dir()
                         else [], ids=lambda f: f[0].name)
def test_every_real_log_matches_the_plain_parse(files, shared_data):
    tf = graphframe.read_trace([str(p) for p in files])
    md = tf.metadata
    assert md["format"] == "jvm-gc" and len(md["logs"]) == 1
    assert md["unparsed"]["gc_lines"] == 0 and md["understood"] == 1.0
    ev = tf.gc.events
    pauses = ev[ev["event_type"] == "pause"]
    expected = plain_pauses(files)
    assert len(pauses) == len(expected)
    if expected:
        exp = np.array(expected)
        np.testing.assert_allclose(pauses["duration"].to_numpy(), exp[:, 0], rtol=1e-12)
        assert pauses["duration"].sum() == pytest.approx(exp[:, 0].sum(), rel=1e-12)
        assert pauses["duration"].max() == exp[:, 0].max()
        np.testing.assert_array_equal(pauses["heap_before"].to_numpy(), exp[:, 1])
        np.testing.assert_array_equal(pauses["heap_after"].to_numpy(), exp[:, 2])
    assert (ev["event_type"] == "safepoint").sum() == plain_safepoints(files)
    s = tf.gc.summary()
    assert int(s["pause_count"].iloc[0]) == len(expected)


def test_the_folders_read_as_labelled_logs(shared_data):
    folder = _folder(shared_data)
    tf = graphframe.read_trace(folder / "gcgc-datasets")
    assert "ZGC.log" in tf.gc.logs and "ZGC.log.0" not in tf.gc.logs
    assert tf.metadata["logs"]["ZGC.log"]["parts"][-1].endswith("ZGC.log.1")
    zgc = tf.gc.filter(log="ZGC.log").events
    # the GC ids continue across the two parts
    ids = zgc.loc[zgc["gc_id"] >= 0, "gc_id"].to_numpy()
    assert ids.min() == 0 and (np.diff(np.unique(ids)) == 1).all()
    tf2 = graphframe.read_trace(folder / "logs")
    assert sorted(tf2.gc.logs) == sorted(p.name for p in (folder / "logs").glob("*.log"))
    expected = sum(len(plain_pauses([p])) for p in (folder / "logs").glob("*.log"))
    assert int(tf2.gc.summary()["pause_count"].sum()) == expected


@pytest.mark.parametrize("name", ["logs/jdk11_g1_128m_safepoint.log", "logs/jdk17_serial_64m.log",
                                  "gcgc-datasets/ZGC.log.1", "gcgc-datasets/GraalVM.log"])
def test_worker_processes_give_the_same_table(shared_data, monkeypatch, name):
    from graphframe_readers.traces import FileSource, decode
    from graphframe_readers.traces.jvmgc import parallel
    from graphframe_readers.traces.jvmgc.table import GcTableBuilder
    path = _folder(shared_data) / name
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)  # small blocks: every range boundary cut
    one, three = GcTableBuilder(), GcTableBuilder()
    a = decode(FileSource(path, block_size=4096), one, format="jvm-gc")
    b = decode(FileSource(path, block_size=4096), three, format="jvm-gc", jobs=3)
    pd.testing.assert_frame_equal(a, b)
    ma, mb = one.definitions.metadata, three.definitions.metadata
    assert ma["counts"] == mb["counts"] and ma["unparsed"] == mb["unparsed"]
    assert (ma["collector"], ma["jvm_version"], ma["decorators"]) == (
        mb["collector"], mb["jvm_version"], mb["decorators"])


@pytest.mark.parametrize("name", ["logs/jdk11_g1_128m_safepoint.log", "logs/jdk11_parallel_128m.log",
                                  "logs/jdk17_serial_64m.log", "logs/jdk21_zgc_256m.log",
                                  "gcgc-datasets/ZGC.log.1", "gcgc-datasets/GraalVM.log",
                                  "gcgc-datasets/ShenandoahGC.log"])
@pytest.mark.parametrize("threads", [2, 3])
def test_threads_give_the_same_table(shared_data, monkeypatch, name, threads):
    from graphframe_readers.traces import FileSource, decode
    from graphframe_readers.traces.jvmgc import parallel
    from graphframe_readers.traces.jvmgc.decoder import JvmGcDecoder
    from graphframe_readers.traces.jvmgc.table import GcTableBuilder
    path = _folder(shared_data) / name
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)  # small blocks: many ranges, every cut
    one, many = GcTableBuilder(), GcTableBuilder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        JvmGcDecoder(threads=1).decode(FileSource(path, block_size=4096), one)
        JvmGcDecoder(threads=threads).decode(FileSource(path, block_size=4096), many)
    one.on_end(), many.on_end()
    pd.testing.assert_frame_equal(one.result(), many.result(), check_exact=True)
    assert one.definitions.metadata == many.definitions.metadata
