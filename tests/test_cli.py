"""The command line: output and exit codes."""

import io
import json
import subprocess
import sys

from graphframe.cli import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_tree_example():
    code, out, err = run("tree", "--example", "--no-color")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "graphframe v0.1.0 \u2014 time (rank 0)"
    assert lines[2] == "0.100 main"
    assert "\033[" not in out
    assert len(lines) == 22


def test_tree_options(tmp_path):
    code, out, _ = run("tree", "--example", "--metric", "time (inc)", "--metric", "time",
                       "--depth", "2", "--rank", "3", "--ascii", "--no-header")
    assert code == 0
    assert out.splitlines()[0] == "30.620 0.100 main"
    assert out.splitlines()[1].startswith("|- ")
    assert len(out.splitlines()) == 4
    code, out, _ = run("tree", "--example", "--color", "--no-header")
    assert code == 0 and "\033[38;5;" in out and "Legend" in out


def test_tree_on_a_file(tmp_path):
    p = tmp_path / "p.json"
    p.write_text(json.dumps([{"frame": {"name": "main"}, "metrics": {"time": 2.5}}]))
    code, out, _ = run("tree", str(p), "--no-header")
    assert (code, out) == (0, "2.500 main\n")


def test_errors_have_one_line_and_nonzero_status(tmp_path):
    code, out, err = run("tree", str(tmp_path / "missing.json"))
    assert code == 1 and out == ""
    assert err == f"graphframe: error: {tmp_path / 'missing.json'}: no such file or directory\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("not a profile")
    code, _, err = run("tree", str(bad))
    assert code == 1 and "no reader recognises this input" in err and "literal" in err
    assert err.count("\n") == 1
    code, _, err = run("tree", "--example", "--metric", "nope")
    assert code == 1 and "metric_column='nope' does not exist" in err
    trunc = tmp_path / "cut.json"
    trunc.write_text('[{"frame": {"name": "a"}, "metr')
    code, _, err = run("tree", str(trunc))
    assert code == 1 and "invalid JSON" in err and "line 1" in err


def test_usage_errors_exit_2():
    assert run("tree")[0] == 2
    assert run("frobnicate")[0] == 2
    assert run()[0] == 2


def test_formats_command():
    code, out, _ = run("formats")
    assert code == 0 and out.splitlines()[0].startswith("literal ")


def test_module_entry_point_runs():
    proc = subprocess.run([sys.executable, "-m", "graphframe", "tree", "--example", "--no-header"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "0.100 main"
    missing = subprocess.run([sys.executable, "-m", "graphframe", "tree", "/no/such/file"],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and missing.stderr.startswith("graphframe: error:")
