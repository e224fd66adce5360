"""JVM GC logs: our reader against a GCGC-style parse, and a 200 MB log.

GCGC (apple/GCGC) reads a log by running one large regular expression on
every line and collecting the groups of the matches into a pandas DataFrame.
:func:`gcgc_style_parse` does the same, written here in our own words (its
expression covers GCGC's fields: date or uptime, GC id, generation prefix,
event type, name, extra info, heap before/after/max, duration, ZGC's heap
percentages, JDK 16+ and JDK 11 safepoint figures). The benchmark reports
both on the same logs and the ratio, plus our read of a generated 200 MB log
(real logs concatenated with GC ids and uptimes shifted so they continue).

Each measurement runs in a fresh interpreter (wall and CPU seconds, peak
resident memory ``VmHWM``); the machine's load average is printed beside
every figure. With ``--gcgc-src`` (a GCGC checkout outside this repository,
for example one fetched for a side-by-side run) its own parser is timed too,
and both are also timed on a second read in the same interpreter (first-call
costs paid: a notebook reading several logs).

Usage::

    python -m benchmarks.gc_bench --out benchmarks/results/gc.json
    python -m benchmarks.gc_bench --size-mb 200 --gcgc-src /tmp/gcgc \
        --gcgc-python /tmp/gcgc/venv/bin/python --out benchmarks/results/gc.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from typing import Any, Dict, List, Optional, Sequence

import pandas as pd

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data",
                      "traces", "jvm-gc")
ZGC = ("gcgc-datasets/ZGC.log.0", "gcgc-datasets/ZGC.log.1")
SOURCES = ("gcgc-datasets/G1GC.log",)

#: one expression per line, GCGC's way (our wording): decorators, then one of the shapes
_GCGC_STYLE = re.compile(
    r"^(?:\[(?P<date>\d{4}-\d\d-\d\dT[\d:.]+[+-]\d{4})\]|\[(?P<time>[\d.]+)(?P<unit>s|ms|ns)\])"
    r"(?P<other>(?:\[[^\]]*\])*)"
    r"(?:"
    r" GC\((?P<gc>\d+)\)(?P<gen> [YO]:)? (?P<type>Pause(?=.*ms)|Concurrent(?=.*ms)|"
    r"Incremental GC|Full GC|[A-Za-z]+ Collection) (?:(?P<name>(?:\w+ ?){1,4}) )?"
    r"(?P<info>(?:\((?:[\w.]+(?:\(\))? ?){1,3}\) ){0,3})"
    r"(?:(?:(?P<before>[\d.]+)M->(?P<after>[\d.]+)M(?:\((?P<max>\d+)M\))?)?(?= ?(?P<ms>\d+\.\d+)ms)"
    r"|(?P<zb>\d+)M\(\d+%\)->(?P<za>\d+)M\((?P<zp>\d+)%\))"
    r"| Safepoint \"(?P<sp>\w+)\", Time since last: (?P<since>\d+) ns, Reaching safepoint: "
    r"(?P<reach>\d+) ns, At safepoint: (?P<at>\d+) ns, Total: (?P<total>\d+) ns$"
    r"| Total time for which application threads were stopped: (?P<stopped>[\d.]+) seconds, "
    r"Stopping threads took: (?P<stopping>[\d.]+) seconds$"
    r")")
_FLOATS = ("time", "before", "after", "max", "ms", "zb", "za", "zp", "since", "reach", "at",
           "total", "stopped", "stopping")


def gcgc_style_parse(paths: Sequence[str]) -> Any:
    """A GCGC-style DataFrame of the log files (one regex search per line)."""
    names = list(_GCGC_STYLE.groupindex)
    columns: Dict[str, List[Any]] = {n: [] for n in names}
    for path in paths:
        with open(path, "r", errors="replace") as fh:
            for line in fh:
                m = _GCGC_STYLE.search(line)
                if m:
                    for n, v in zip(names, m.groups()):
                        columns[n].append(v)
    df = pd.DataFrame(columns)
    for col in _FLOATS:
        df[col] = pd.to_numeric(df[col])
    df["gc"] = pd.to_numeric(df["gc"])
    return df


def generate(path: str, size_mb: float, sources: Sequence[str]) -> str:
    """A log of about ``size_mb`` MB: the source logs repeated, uptimes and GC ids shifted."""
    if os.path.exists(path) and os.path.getsize(path) >= size_mb * 1e6 * 0.98:
        return path
    texts = []
    for src in sources:
        with open(src, "r", errors="replace") as fh:
            texts.append(fh.read())
    base = "".join(texts)
    uptime = re.compile(r"^\[(\d+\.\d+)s\]", re.M)
    gcid = re.compile(r"GC\((\d+)\)")
    span = max(float(x) for x in uptime.findall(base)) + 1.0
    ids = max(int(x) for x in gcid.findall(base)) + 1
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    written, k = 0, 0
    with open(path + ".tmp", "w") as out:
        while written < size_mb * 1e6:
            shift_t, shift_id = k * span, k * ids
            text = uptime.sub(lambda m: f"[{float(m.group(1)) + shift_t:.3f}s]", base)
            text = gcid.sub(lambda m: f"GC({int(m.group(1)) + shift_id})", text)
            out.write(text)
            written += len(text)
            k += 1
    os.replace(path + ".tmp", path)
    return path


CHILD = r"""
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
what, warm, paths = sys.argv[1], sys.argv[2] == "warm", sys.argv[3:]
# imports first: the figures are the parse, not the interpreter's start
if what == "ours":
    import graphframe, graphframe.traces.gc, graphframe_readers.traces.jvmgc.table
    import pandas, pyarrow.compute
    from graphframe_readers.traces import trace_formats
    trace_formats()  # the decoder modules are imported on first use
elif what == "gcgc-style":
    import pandas
    from benchmarks.gc_bench import gcgc_style_parse
else:  # gcgc:<checkout>
    sys.path.insert(0, what.split(":", 1)[1])
    import pandas
    from src.read_log_file import get_parsed_data_from_file
def read():
    if what == "ours":
        tf = graphframe.read_trace(paths if len(paths) > 1 else paths[0])
        return len(tf.gc.events)
    if what == "gcgc-style":
        return len(gcgc_style_parse(paths))
    return sum(len(get_parsed_data_from_file(p)) for p in paths)
if warm:  # a second read in the same process (as in a notebook): first-call costs paid
    read()
t = time.perf_counter(); c = time.process_time()
rows = read()
seconds = time.perf_counter() - t
cpu = time.process_time() - c
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print("RESULT " + json.dumps({"seconds": seconds, "cpu_seconds": cpu,
                              "peak_mb": int(hwm) / 1024, "rows": rows}))
"""


#: fresh interpreters with their modules' byte code cached, as installed packages have it
#: (PYTHONDONTWRITEBYTECODE would make each child compile the modules a read imports:
#: ~35 ms of a first read, for both sides)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(what: str, paths: Sequence[str], python: str = sys.executable,
            warm: bool = False) -> Dict[str, Any]:
    """One run in a fresh interpreter: wall/CPU seconds, peak MB, rows, load average
    (``warm``: of the second read in that interpreter)."""
    load = os.getloadavg()[0]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([python, "-c", CHILD, what, "warm" if warm else "first", *paths],
                          capture_output=True, text=True, cwd=root, timeout=3600, env=ENV)
    line = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
    if done.returncode or not line:
        raise RuntimeError(f"{what} failed: {done.stderr[-2000:]}")
    out = json.loads(line[0][7:])
    out.update(what=what, load=load, mb=sum(os.path.getsize(p) for p in paths) / 1e6)
    return out


def best(what: str, paths: Sequence[str], repeat: int, python: str = sys.executable,
         warm: bool = False) -> Dict[str, Any]:
    """The run with the least CPU time of ``repeat``."""
    runs = [measure(what, paths, python, warm) for _ in range(repeat)]
    return min(runs, key=lambda r: r["cpu_seconds"])


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=SHARED, help="the jvm-gc folder of the shared data")
    p.add_argument("--size-mb", type=float, default=200.0, help="generated log size (0: skip)")
    p.add_argument("--cache", default="/tmp/graphframe-gc-bench", help="generated logs")
    p.add_argument("--repeat", type=int, default=3, help="runs per figure (the least CPU kept)")
    p.add_argument("--gcgc-src", help="a GCGC checkout (outside this repository) to time too")
    p.add_argument("--gcgc-python", default=sys.executable,
                   help="the interpreter for --gcgc-src (a venv with pandas, matplotlib)")
    p.add_argument("--big-gcgc-style", action="store_true",
                   help="also time the GCGC-style parse on the generated log")
    p.add_argument("--zgc-mb", type=float, default=2.4,
                   help="also a ZGC log of this size made of GCGC's pair (0: skip)")
    p.add_argument("--out", help="write the results as JSON")
    args = p.parse_args(argv)
    zgc = [os.path.join(args.data, f) for f in ZGC]
    results = []
    rows = [("ZGC log (GCGC's, 2 parts)", zgc)] + [
        (os.path.basename(f), [os.path.join(args.data, f)]) for f in SOURCES]
    if args.zgc_mb:  # GCGC's ZGC pair repeated to the size the issue names (2.2 MB there)
        rows.append((f"ZGC log x{args.zgc_mb:g} MB (the pair repeated)",
                     [generate(os.path.join(args.cache, f"zgc-{args.zgc_mb:g}mb.log"),
                               args.zgc_mb, zgc)]))
    for label, paths in rows:
        ours = best("ours", paths, args.repeat)
        style = best("gcgc-style", paths, args.repeat)
        entry = {"log": label, "ours": ours, "gcgc_style": style,
                 "ratio_cpu": style["cpu_seconds"] / ours["cpu_seconds"]}
        if args.gcgc_src:
            entry["gcgc"] = best(f"gcgc:{args.gcgc_src}", paths, args.repeat, args.gcgc_python)
            entry["ratio_cpu_gcgc"] = entry["gcgc"]["cpu_seconds"] / ours["cpu_seconds"]
            # the second read of each in one interpreter (a notebook reading several logs)
            entry["ours_warm"] = best("ours", paths, args.repeat, warm=True)
            entry["gcgc_warm"] = best(f"gcgc:{args.gcgc_src}", paths, args.repeat,
                                      args.gcgc_python, warm=True)
            entry["ratio_cpu_gcgc_warm"] = (entry["gcgc_warm"]["cpu_seconds"]
                                            / entry["ours_warm"]["cpu_seconds"])
        results.append(entry)
    if args.size_mb:
        big = generate(os.path.join(args.cache, f"g1-{int(args.size_mb)}mb.log"), args.size_mb,
                       [os.path.join(args.data, f) for f in SOURCES])
        entry = {"log": f"generated {os.path.getsize(big) / 1e6:.0f} MB",
                 "ours": best("ours", [big], max(1, args.repeat - 2))}
        if args.big_gcgc_style:
            entry["gcgc_style"] = measure("gcgc-style", [big])
            entry["ratio_cpu"] = entry["gcgc_style"]["cpu_seconds"] / entry["ours"]["cpu_seconds"]
        results.append(entry)
    for e in results:
        ours = e["ours"]
        line = f"{e['log']}: ours {ours['seconds']:.3f} s wall, {ours['cpu_seconds']:.3f} s " \
               f"CPU, {e['ours']['peak_mb']:.0f} MB (load {e['ours']['load']:.1f})"
        if "gcgc_style" in e:
            line += f"; GCGC-style {e['gcgc_style']['cpu_seconds']:.3f} s CPU (load " \
                    f"{e['gcgc_style']['load']:.1f}); ratio {e['ratio_cpu']:.2f}x"
        if "gcgc" in e:
            line += f"; GCGC {e['gcgc']['cpu_seconds']:.3f} s CPU; ratio {e['ratio_cpu_gcgc']:.2f}x"
        if "gcgc_warm" in e:
            line += f"; second read: ours {e['ours_warm']['cpu_seconds']:.3f} s, GCGC " \
                    f"{e['gcgc_warm']['cpu_seconds']:.3f} s CPU; ratio " \
                    f"{e['ratio_cpu_gcgc_warm']:.2f}x"
        print(line)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
