"""mprof-report's text output, parsed on its own (never with the decoder's code).

``parse_report(text)`` -> a dict of sections, each parsed into plain values
with regular expressions; ``debug_lines(text)`` -> the event lines of a
``--debug`` dump (the report that follows them cut off).
"""

from __future__ import annotations

import re
from typing import Dict, List

HEADERS = ("Mono log profiler data", "JIT summary", "GC summary", "Statistical samples summary",
           "Allocation summary", "Method call summary", "Metadata summary", "Exception summary",
           "Monitor lock summary", "Thread summary", "Domain summary", "Context summary",
           "Heap shot summary", "Counters:")


def split_sections(text: str) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {"preamble": []}
    current = "preamble"
    for line in text.splitlines():
        if line in HEADERS:
            current = line
            out[current] = []
        elif line.strip():
            out[current].append(line)
    return out


def _kv(lines: List[str]) -> Dict[str, str]:
    out = {}
    for line in lines:
        key, _, value = line.strip().partition(": ")
        out[key] = value
    return out


def parse_report(text: str) -> Dict[str, object]:
    s = split_sections(text)
    rep: Dict[str, object] = {}
    rep["unmatched"] = [re.match(r"unmatched leave at stack pos: (\d+) for method (.*)$", l)
                        .groups() for l in s["preamble"] if l.startswith("unmatched leave")]
    rep["header"] = _kv(s.get("Mono log profiler data", []))
    rep["jit"] = {k: int(v) for k, v in _kv(s.get("JIT summary", [])).items()}
    if "GC summary" in s:
        gc = {"gens": [], "handles": []}
        for line in s["GC summary"]:
            m = re.match(r"\tGen(\d) collections: (\d+), max time: (\d+)us, total time: (\d+)us, "
                         r"average: (\d+)us$", line)
            h = re.match(r"\tGC handles (\w+): created: (\d+), destroyed: (\d+), max: (\d+)$", line)
            if m:
                gc["gens"].append(tuple(int(x) for x in m.groups()))
            elif h:
                gc["handles"].append((h.group(1),) + tuple(int(x) for x in h.groups()[1:]))
            else:
                key, _, value = line.strip().partition(": ")
                gc[key] = int(value)
        rep["gc"] = gc
    if "Allocation summary" in s:
        rows, total = [], None
        for line in s["Allocation summary"][1:]:
            t = re.match(r"Total memory allocated: (\d+) bytes in (\d+) objects$", line)
            if t:
                total = (int(t.group(1)), int(t.group(2)))
                continue
            m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+) (.*)$", line)
            rows.append((m.group(4), int(m.group(1)), int(m.group(2)), int(m.group(3))))
        rep["alloc"] = {"rows": rows, "total": total}
    if "Method call summary" in s:
        rows, total = [], None
        for line in s["Method call summary"][1:]:
            t = re.match(r"Total calls: (\d+)$", line)
            if t:
                total = int(t.group(1))
                continue
            m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+) (.*)$", line)
            rows.append((m.group(4), int(m.group(1)), int(m.group(2)), int(m.group(3))))
        rep["calls"] = {"rows": rows, "total": total}
    if "Statistical samples summary" in s:
        lines = s["Statistical samples summary"]
        kv = {}
        rows = []
        for line in lines:
            m = re.match(r"\t(Unmanaged|Managed|Unresolved) hits:\s+(\d+) \(\s*([\d.]+)%\)$", line)
            r = re.match(r"\t\s*(\d+)\s+([\d.]+) (.*?)(?:\s+in (\S.*))?$", line)
            if line.startswith("\tSample type: "):
                kv["type"] = line.split(": ", 1)[1]
            elif m:
                kv[m.group(1).lower()] = int(m.group(2))
            elif "Method name" in line:
                continue
            elif r:
                rows.append((r.group(3).rstrip(), int(r.group(1)), r.group(2), r.group(4) or ""))
        kv["rows"] = rows
        rep["samples"] = kv
    if "Metadata summary" in s:
        rep["metadata"] = {k: int(v) for k, v in _kv(s["Metadata summary"]).items()}
    if "Exception summary" in s:
        ex = {"clauses": {}}
        for line in s["Exception summary"]:
            m = re.match(r"\tExecuted (\w+) clauses: (\d+)$", line)
            if m:
                ex["clauses"][m.group(1)] = int(m.group(2))
            elif line.startswith("\tThrows: "):
                ex["throws"] = int(line.split(": ")[1])
        rep["exceptions"] = ex
    if "Monitor lock summary" in s:
        mon = {"locks": []}
        lines = s["Monitor lock summary"]
        i = 0
        while i < len(lines):
            m = re.match(r"\tLock object (\S+): (\d+) contentions$", lines[i])
            if m:
                w = re.match(r"\t\t([\d.]+) secs total wait time, ([\d.]+) max, ([\w.-]+) average$",
                             lines[i + 1])
                mon["locks"].append((m.group(1), int(m.group(2)), w.group(1), w.group(2),
                                     w.group(3)))
                i += 2
                continue
            key, _, value = lines[i].strip().partition(": ")
            mon[key] = int(value)
            i += 1
        rep["monitors"] = mon
    if "Thread summary" in s:
        rep["threads"] = [re.match(r'\tThread: (\S+), name: "(.*)"$', l).groups()
                          for l in s["Thread summary"]]
    if "Domain summary" in s:
        rep["domains"] = [re.match(r'\tDomain: (\S+), friendly name: "(.*)"$', l).groups()
                          for l in s["Domain summary"]]
    if "Context summary" in s:
        rep["contexts"] = [re.match(r"\tContext: (\S+), domain: (\S+)$", l).groups()
                           for l in s["Context summary"]]
    if "Heap shot summary" in s:
        shots = []
        for line in s["Heap shot summary"]:
            h = re.match(r"\tHeap shot (\d+) at ([\d.]+) secs: size: (\d+), object count: (\d+), "
                         r"class count: (\d+), roots: (\d+)$", line)
            r = re.match(r"\t\s*(\d+)\s+(\d+)\s+(\d+) (.*?)(?: \(bytes: ([+-]\d+), "
                         r"count: ([+-]\d+)\))?$", line)
            if h:
                shots.append({"time": h.group(2), "size": int(h.group(3)),
                              "objects": int(h.group(4)), "classes": int(h.group(5)),
                              "rows": []})
            elif "Class name" in line:
                continue
            elif r:
                diff = (int(r.group(5)), int(r.group(6))) if r.group(5) else None
                shots[-1]["rows"].append((r.group(4), int(r.group(1)), int(r.group(2)),
                                          int(r.group(3)), diff))
        rep["heapshots"] = shots
    if "Counters:" in s:
        counters = []
        section = None
        for line in s["Counters:"]:
            if line.startswith("\t\t"):
                name, _, value = line.strip().partition(" : ")
                counters.append((section, name.strip(), value.strip()))
            else:
                section = line.strip().rstrip(":")
        rep["counters"] = counters
    return rep


def debug_lines(text: str) -> List[str]:
    """The event lines of a --debug dump (everything before the report)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line == "Mono log profiler data" and i and lines[i - 1] == "":
            return lines[:i - 1]
    return lines


def parse_alloc_traces(text: str) -> Dict[tuple, int]:
    """``--traces`` allocation section: bytes per (class, frames), frames summed when
    several backtraces print the same names."""
    lines = split_sections(text).get("Allocation summary", [])[1:]
    out: Dict[tuple, int] = {}
    klass = None
    i = 0
    while i < len(lines):
        row = re.match(r"\s*\d+\s+\d+\s+\d+ (.*)$", lines[i])
        trace = re.match(r"\t(\d+) bytes from:$", lines[i])
        if trace:
            frames = []
            i += 1
            while i < len(lines) and lines[i].startswith("\t\t"):
                frames.append(lines[i][2:])
                i += 1
            key = (klass, tuple(frames))
            out[key] = out.get(key, 0) + int(trace.group(1))
            continue
        if row and not lines[i].startswith("Total"):
            klass = row.group(1)
        i += 1
    return out


def parse_method_traces(text: str) -> Dict[tuple, int]:
    """``--traces`` method section: calls per (method, caller frames)."""
    lines = split_sections(text).get("Method call summary", [])[1:]
    out: Dict[tuple, int] = {}
    method = None
    i = 0
    while i < len(lines):
        row = re.match(r"\s*\d+\s+\d+\s+\d+ (.*)$", lines[i])
        trace = re.match(r"\t(\d+) calls from:$", lines[i])
        if trace:
            frames = []
            i += 1
            while i < len(lines) and lines[i].startswith("\t\t"):
                frames.append(lines[i][2:])
                i += 1
            key = (method, tuple(frames))
            out[key] = out.get(key, 0) + int(trace.group(1))
            continue
        if row and not lines[i].startswith("Total"):
            method = row.group(1)
        i += 1
    return out


def parse_throw_traces(text: str) -> Dict[tuple, int]:
    """``--traces`` exception section: throws per frames."""
    lines = split_sections(text).get("Exception summary", [])
    out: Dict[tuple, int] = {}
    i = 0
    while i < len(lines):
        trace = re.match(r"\t(\d+) throws from:$", lines[i])
        i += 1
        if trace:
            frames = []
            while i < len(lines) and lines[i].startswith("\t\t"):
                frames.append(lines[i][2:])
                i += 1
            out[tuple(frames)] = out.get(tuple(frames), 0) + int(trace.group(1))
    return out
