"""Command-line defects of issue 19: Ctrl-C, empty files, --depth, formats, tree inputs."""

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import graphframe
import graphframe.graphframe as graphframe_module
from graphframe import GraphFrame
from graphframe.cli import main
from graphframe.cli.common import EXIT_INTERRUPTED, ProgressBar
from graphframe.examples import example_graphframe


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, tmp_path):
    path = example_graphframe().save(tmp_path / "run.gfz")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(graphframe_module.GraphFrame, "read", interrupted)
    for command in (["tree", path], ["info", path], ["convert", path, "-", "--to", "folded"]):
        assert run(*command) == (EXIT_INTERRUPTED, "", "graphframe: interrupted\n")
    assert EXIT_INTERRUPTED == 130


def test_ctrl_c_clears_a_partly_drawn_bar(monkeypatch, capsys, tmp_path, text_progress_bar):
    path = example_graphframe().save(tmp_path / "run.gfz")

    def slow(path, format=None, progress=None, **options):
        progress(3, 10, "bytes")       # a bar is drawn, then the user presses Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(graphframe_module.GraphFrame, "read", slow)
    err = io.StringIO()
    assert main(["tree", str(path), "--progress"], stdout=io.StringIO(), stderr=err) == 130
    assert err.getvalue() == "graphframe: interrupted\n"
    # the bar's line is ended (a pipe here; a terminal gets "\r\033[K"), nothing left open
    assert capsys.readouterr().err == "\r[#########.....................] 3/10 bytes\n"
    assert ProgressBar._active == []


def test_sigint_to_a_running_command(tmp_path):
    """A real Ctrl-C (SIGINT) while a read draws its bar: no traceback, exit 130."""
    script = tmp_path / "slow.py"
    script.write_text(textwrap.dedent("""
        import signal, sys, time
        import graphframe.graphframe as G

        # as under a terminal: a process started in the background by a shell without job
        # control inherits SIGINT ignored, and Python then keeps ignoring it
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import graphframe_readers.progress as P
        from graphframe.cli import main

        P.tqdm_available = lambda: False  # our text bar, even where tqdm is installed

        def slow(path, format=None, progress=None, **options):
            progress(3, 10, "bytes of a slow file")
            time.sleep(60)

        G.GraphFrame.read = staticmethod(slow)
        sys.exit(main(["info", sys.argv[1], "--progress"]))
    """))
    data = tmp_path / "p.json"
    data.write_text('[{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]')
    checkout = str(Path(graphframe_module.__file__).resolve().parents[1])  # this graphframe
    env = {**os.environ, "PYTHONPATH": checkout}
    proc = subprocess.Popen([sys.executable, str(script), str(data)], stderr=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env)
    try:
        first = os.read(proc.stderr.fileno(), 1)   # the bar has started (unbuffered read:
        # communicate() reads the descriptor itself)
        assert first == b"\r"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = (first + err).decode()
    assert proc.returncode == 130 and out == b""
    assert err == "\r[#########.....................] 3/10 bytes of a slow file\n" \
                  "graphframe: interrupted\n"


@pytest.mark.parametrize("command", [["tree"], ["info"], ["convert", "-", "--to", "folded"]])
def test_empty_file_is_named_as_empty(tmp_path, command):
    empty = tmp_path / "run.cali"
    empty.write_bytes(b"")
    argv = [command[0], empty] + command[1:]
    code, out, err = run(*argv)
    assert (code, out) == (1, "")
    assert err == (f"graphframe: error: {empty}: the file is empty (0 bytes) (expected a "
                   "profile; `graphframe formats` lists the formats read)\n")


def test_depth_help_says_what_is_printed(capsys):
    assert main(["tree", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--depth N, -d N print the first N levels only: 1 = the roots, 2 = the roots " \
           "and their children, ... (default: every level)" in text


def test_depth_counts_levels_from_the_roots():
    code, out, _ = run("tree", "--example", "--depth", "1", "--no-header", "--no-color")
    assert code == 0 and out == "0.100 main\n"
    code, out, _ = run("tree", "--example", "--depth", "2", "--no-header", "--no-color")
    assert out.count("\n") == 1 + len(example_graphframe().graph.children_of(0))
    code, full, _ = run("tree", "--example", "--no-header", "--no-color")
    assert full.count("\n") == example_graphframe().graph.num_nodes


def test_formats_table_keeps_every_name_whole():
    code, out, _ = run("formats")
    lines = out.splitlines()
    names = [line.split()[0] for line in lines]
    assert code == 0 and names == graphframe.formats() + ["graphframe-ensemble", "thicket-json"]
    assert [line.split()[1] for line in lines[-3:]] == ["archive", "ensemble", "ensemble"]
    starts = {len(line) - len(line[len(name):].lstrip()) for line, name in zip(lines, names)}
    assert starts == {len("graphframe-ensemble") + 2}   # one column for every kind


def test_tree_reads_an_archive_with_format_graphframe(tmp_path):
    path = example_graphframe().save(tmp_path / "run.gfz")
    code, out, err = run("tree", path, "--format", "graphframe", "--no-header", "--depth", "1",
                         "--no-color")
    assert (code, out, err) == (0, "0.100 main\n", "")


def test_convert_speedscope_unit(tmp_path):
    path = GraphFrame.from_lists(("main", "solve")).save(tmp_path / "run.gfz")
    code, out, _ = run("convert", path, "-", "--to", "speedscope", "--unit", "milliseconds")
    assert code == 0 and '"unit": "milliseconds"' in out
    code, out, _ = run("convert", path, "-", "--to", "speedscope")
    assert '"unit": "none"' in out     # a literal's metric has no known unit


def test_ctrl_c_closes_a_tqdm_bar_without_leaving_it(monkeypatch, tmp_path):
    import types

    bars = []

    class FakeTqdm:
        def __init__(self, total, desc, unit, unit_scale, file, leave):
            self.n, self.leave, self.closed = 0, leave, False
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    path = example_graphframe().save(tmp_path / "run.gfz")

    def slow(path, format=None, progress=None, **options):
        progress(3, 10, "bytes")
        raise KeyboardInterrupt

    monkeypatch.setattr(graphframe_module.GraphFrame, "read", slow)
    assert run("tree", path, "--progress") == (130, "", "graphframe: interrupted\n")
    (bar,) = bars
    assert bar.closed and bar.leave is False and bar.n == 3   # tqdm erases a bar not left
