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


# ----------------------------------------------------- bad user input (audit 7, 8, 9)
def test_a_rank_the_profile_lacks_exits_1_with_one_line():
    code, out, err = run("tree", "--example", "--rank", "99")
    assert (code, out) == (1, "")
    assert err == "graphframe: error: rank=99 does not exist; the ranks are 0, 1, 2, 3\n"


def test_bad_option_values_are_usage_errors_without_a_traceback(capsys):
    for argv in (["--precision", "-2"], ["--precision", "x"], ["--depth", "-1"]):
        code, out, _ = run("tree", "--example", *argv)
        err = capsys.readouterr().err  # argparse writes usage errors to sys.stderr
        assert code == 2 and out == ""
        wanted = ("is not a whole number >= 1 (1 = the roots only)" if argv[0] == "--depth"
                  else "is not an integer >= 0")
        assert err.endswith(f"graphframe tree: error: argument {argv[0]}"
                            f"{'/-d' if argv[0] == '--depth' else ''}: "
                            f"'{argv[1]}' {wanted}\n")
    code, _, err = run("tree", "--example", "--name-column", "nope")
    assert code == 1 and err.count("\n") == 1 and "name_column='nope'" in err
    code, _, err = run("tree", "--example", "--thread", "2")
    assert code == 1 and err.count("\n") == 1 and "has no thread level" in err


def test_tree_of_a_structure_only_profile(shared_data):
    code, out, err = run("tree", str(shared_data / "hpctoolkit" /
                                     "hpcviewer-bug-nometric-xml-database"), "--no-color")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "graphframe v0.1.0 \u2014 structure only (no metrics)"
    assert out.splitlines()[3] == "└─ 525:main <unknown file> [a.out]"


def test_convert_a_deep_profile_to_a_literal(tmp_path):
    depth = 3000  # json.dumps fails beyond ~450 nested nodes
    text = "".join('{"frame": {"name": "f%d"}, "metrics": {"time": 1.0}, "children": [' % i
                   for i in range(depth)) + "]}" * depth
    src = tmp_path / "deep.json"
    src.write_text("[" + text + "]")
    out = tmp_path / "out.json"
    code, _, err = run("convert", str(src), str(out), "--to", "literal")
    assert (code, err) == (0, "")
    # Hatchet's node keys: name, frame (with Hatchet's "None" type), metrics with
    # _hatchet_nid, attributes, children
    expected = "".join('{"name": "f%d", "frame": {"name": "f%d", "type": "None"}, "metrics": '
                       '{"time": 1.0, "_hatchet_nid": %d}, "attributes": {}, "children": ['
                       % (i, i, i)
                       for i in range(depth)) + "]}" * depth
    assert out.read_text() == "[" + expected.replace(', "children": []', "") + "]"
    code, _, err = run("convert", str(src), str(tmp_path / "out2.json"), "--to", "json")
    assert (code, err) == (0, "")
