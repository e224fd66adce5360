"""perf script output: sample headers, frames innermost first, the calling-context tree,
events as metrics, errors; a real excerpt made with perf on this project's machine."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphframe_readers
from graphframe import GraphFrame
from graphframe_readers import ReadError
from graphframe_readers.perf import parse_perf_script, read_perf_script
from graphframe_readers.perf.reader import sniff_perf_script
from graphframe_readers.testing import check_reader
from graphframe_readers.testing.writers.perf import generate_perf_script

# `perf record -e cpu-clock,task-clock -F 999 -g ./prog 3; perf script` (perf 6.1, the
# default fields): the first samples, as perf printed them
REAL = (
    "prog 23036  2600.255198:    1001001  cpu-clock: \n"
    "\t            1192 leaf+0x29 (/tmp/perfw/prog)\n"
    "\t            125d worker+0x20 (/tmp/perfw/prog)\n"
    "\t           891f5 start_thread+0x305 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n"
    "prog 23036  2600.255212:    1001001 task-clock: \n"
    "\t            1192 leaf+0x29 (/tmp/perfw/prog)\n"
    "\t            125d worker+0x20 (/tmp/perfw/prog)\n"
    "\t           891f5 start_thread+0x305 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n"
    "prog 23033  2600.256201:    1001001  cpu-clock: \n"
    "\t            1192 leaf+0x29 (/tmp/perfw/prog)\n"
    "\t            1302 main+0x7a (/tmp/perfw/prog)\n"
    "\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n"
    "prog 23033  2600.257190:    1001001  cpu-clock: \n"
    "\tffffffff8225aa01 asm_sysvec_apic_timer_interrupt+0x1a ([kernel.kallsyms])\n"
    "\t            1192 leaf+0x29 (/tmp/perfw/prog)\n"
    "\t            1302 main+0x7a (/tmp/perfw/prog)\n"
    "\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n")


def paths(raw, column, level=None):
    """{call path from the root: value} of the nodes with a non-zero value."""
    nodes = raw.nodes.set_index("node")
    parent = nodes["parent"].to_dict()
    name = nodes["name"].to_dict()

    def path(v):
        out = []
        while v != -1:
            out.append(name[v])
            v = parent[v]
        return tuple(reversed(out))
    m = raw.metrics if level is None else raw.metrics[raw.metrics["thread"] == level]
    return {path(v): int(x) for v, x in zip(m["node"], m[column]) if x}


def test_real_excerpt():
    raw = parse_perf_script(REAL, source="perf.txt")
    assert raw.exc_metrics == ("cpu-clock", "cpu-clock period", "task-clock",
                               "task-clock period")
    assert raw.default_metric == "cpu-clock"
    assert paths(raw, "cpu-clock") == {
        ("prog", "start_thread", "worker", "leaf"): 1,
        ("prog", "__libc_start_call_main", "main", "leaf"): 1,
        ("prog", "__libc_start_call_main", "main", "leaf", "asm_sysvec_apic_timer_interrupt"): 1}
    assert paths(raw, "cpu-clock (inc)")[("prog",)] == 3
    assert paths(raw, "task-clock (inc)") == {("prog",): 1, ("prog", "start_thread"): 1,
                                              ("prog", "start_thread", "worker"): 1,
                                              ("prog", "start_thread", "worker", "leaf"): 1}
    assert paths(raw, "cpu-clock period (inc)")[("prog", "__libc_start_call_main")] == 2002002
    m = raw.metrics.set_index("name")
    assert m.loc["worker", ["module", "dso"]].tolist() == ["prog", "/tmp/perfw/prog"]
    assert m.loc["asm_sysvec_apic_timer_interrupt", "module"] == "[kernel.kallsyms]"
    assert raw.metadata["samples_per_event"] == {"cpu-clock": 3, "task-clock": 1}
    assert raw.metadata["threads"] == [23033, 23036]
    assert raw.metadata["first_time"] == 2600.255198
    frame = raw.nodes.set_index("name").loc["prog"]
    assert frame["type"] == "process"


def test_per_thread_rows():
    raw = parse_perf_script(REAL, per_thread=True)
    assert raw.index_levels == ("thread",)
    assert paths(raw, "cpu-clock (inc)", 23036) == {
        ("prog",): 1, ("prog", "start_thread"): 1, ("prog", "start_thread", "worker"): 1,
        ("prog", "start_thread", "worker", "leaf"): 1}
    assert paths(raw, "cpu-clock (inc)", 23033)[("prog",)] == 2


def test_header_variants_unknown_frames_and_samples_without_call_chains():
    text = (
        "# ========\n# captured on: today\n# ========\n#\n"
        "Web Content 311/312 [003] 10.000100:     5000 cycles:u: \n"
        "\t    7f00aa [unknown] ([unknown])\n"
        "\t      4010 main+0x10 (/usr/bin/firefox)\n\n"
        "kworker/0:1    17 [000] 10.000200: sched:sched_switch: prev_comm=kworker/0:1 "
        "prev_pid=17 ==> next_comm=swapper/0 next_pid=0\n"
        "\tffffffff8100 __schedule+0x2b0 ([kernel.kallsyms])\n"
        "\tffffffff8200 schedule+0x4a ([kernel.kallsyms])\n\n"
        "            dd  99 10.000300:     5000 cycles:u:          4010 main+0x10 (/bin/dd)\n"
        "            dd  99 10.000400:     5000 cycles:u:          4020 [unknown] (/bin/dd)\n")
    raw = parse_perf_script(text)
    assert raw.metadata["events"] == ["cycles:u", "sched:sched_switch"]
    assert paths(raw, "cycles:u") == {("Web Content", "main", "7f00aa"): 1,
                                      ("dd", "main"): 1, ("dd", "4020"): 1}
    assert paths(raw, "sched:sched_switch") == {("kworker/0:1", "schedule", "__schedule"): 1}
    assert paths(raw, "cycles:u period (inc)")[("dd",)] == 10000
    assert raw.metadata["threads"] == [17, 99, 312]


def test_a_sample_without_frames_counts_at_its_command():
    raw = parse_perf_script("app 5 1.0: 10 cycles: \n\napp 5 1.1: 10 cycles: \n"
                            "\t 40 main (/bin/app)\n\n")
    assert paths(raw, "cycles") == {("app",): 1, ("app", "main"): 1}
    assert raw.metadata["samples_without_frames"] == 1


def test_graphframe_tree():
    gf = GraphFrame.from_raw(parse_perf_script(REAL))
    out = gf.tree(metric_column="cpu-clock (inc)")
    assert "3.000 prog" in out and "1.000 start_thread" in out
    assert gf.graph.num_nodes == 8


@pytest.mark.parametrize("text, message", [
    ("prog 7 1.0: 1 cycles:\n\t 11 main (/a)\n\tgarbage\n",
     "p.txt: line 3: cannot read the line 'garbage' (expected a frame line: a tab, the "
     "address, the symbol[+0xOFFSET], '(DSO)')"),
    ("just some text\n",
     "p.txt: line 1: cannot read the line 'just some text' (expected a sample header as perf "
     "script prints it: 'COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT:')"),
    ("\t 11 main (/a)\nprog 7 1.0: 1 cycles:\n",
     "p.txt: line 1: a frame line comes before any sample header (expected a sample header "
     "as perf script prints it: 'COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT:')"),
    ("prog 7 1.0: 1 cycles:\n\t 11 main (/a",
     "p.txt: line 2: the text ends inside a line: the file is truncated (expected perf "
     "script output, which ends with a line break)"),
    ("\n\n", "p.txt: line 1: the file is empty (expected perf script output)"),
    ("# only comments\n", "p.txt: line 1: no sample header was found (expected perf script "
     "output: sample headers and frames)"),
])
def test_located_errors(text, message):
    with pytest.raises(ReadError) as info:
        parse_perf_script(text, source="p.txt")
    assert str(info.value) == message


@settings(max_examples=20, deadline=None)
@given(samples=st.integers(1, 60), depth=st.integers(1, 15), seed=st.integers(0, 10**6),
       threads=st.integers(1, 3))
def test_generated_output_reads_back(tmp_path_factory, samples, depth, seed, threads):
    p = tmp_path_factory.mktemp("perf") / "perf.txt"
    truth = generate_perf_script(p, samples=samples, max_depth=depth, seed=seed,
                                 threads=threads)
    raw = read_perf_script(p)
    for event in ("cycles", "instructions"):
        want = {k[0]: v for k, v in truth.samples.items() if k[1] == event}
        if event not in raw.metrics.columns:  # an event no sample drew
            assert not want
            continue
        assert paths(raw, event) == want
        want = {k[0]: v for k, v in truth.periods.items() if k[1] == event}
        assert paths(raw, f"{event} period") == want
    assert raw.metadata["samples"] == truth.total


def test_conformance(tmp_path):
    p = tmp_path / "perf.script"
    generate_perf_script(p, samples=300, seed=4)
    assert graphframe_readers.sniff(p) == "perf-script"
    raw = check_reader(p, "perf-script", tmp_path)
    assert raw.metadata["samples"] == 300


@pytest.mark.parametrize("head, expected", [
    (REAL[:200].encode(), True),
    (b"            prog 23126  2603.055184:    1001001 cpu-clock:      55c7e1ff8192 "
     b"leaf+0x29 (/tmp/perfw/prog)\n            prog 23126", True),
    (b"# ========\n# captured on: x\n# ========\n#\nbash 7 [000] 1.5: sched:sched_switch: "
     b"prev_comm=bash\n\tffff schedule (k)\n", True),
    (b"Flat profile:\n\nEach sample counts as 0.01 seconds.\n", False),
    (b"# callgrind format\nversion: 1\n", False),
    (b"digraph {\n", False),
])
def test_sniff(tmp_path, head, expected):
    assert sniff_perf_script(tmp_path / "x", head) is expected


def test_conformance_on_the_real_excerpt(tmp_path):
    p = tmp_path / "prog.perf"
    p.write_text(REAL)
    raw = check_reader(p, "perf-script", tmp_path)
    assert raw.metadata["samples"] == 4


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                          st.binary(min_size=1, max_size=5)), min_size=1, max_size=4))
def test_damaged_input_is_a_read_error_or_a_profile(edits):
    from tests.helpers import EDIT_BYTES, damaged
    chunks = [(p, k, bytes(EDIT_BYTES[b % len(EDIT_BYTES)] for b in c)) for p, k, c in edits]
    data = damaged(REAL.encode(), chunks)
    try:
        parse_perf_script(data, source="damaged")
    except ReadError:
        pass
