"""graphframe diff / convert / info: output, exit codes and messages."""

import io
import json
import subprocess
import sys

import pytest

from graphframe import load, read
from graphframe.cli import main
from graphframe.examples import example_graphframe
from tests.helpers import pair
from tests.helpers import replaced


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    before, after = pair(ranks=0)
    b = before.save(tmp_path / "before.gfz")
    a = tmp_path / "after.json"
    a.write_text(after.to_json())
    return b, a


DIFF_OUTPUT = """\
graphframe diff: {b} → {a}
metric time (inc), mean over ranks, matched by call path, noise threshold 0% of the before total

Largest changes, inclusive (time (inc)):
   delta  before   after  change  status  call path
  +2.500   7.000   9.500  +35.7%  common  main > solve
  +2.000   8.500  10.500  +23.5%  common  main
  +1.000   0.000   1.000     new  added   main > solve > mpi
  +1.000   5.000   6.000  +20.0%  common  main > solve > spmv

Largest changes, exclusive (time):
   delta  before  after   change  status   call path
  +1.000   0.000  1.000      new  added    main > solve > mpi
  +1.000   5.000  6.000   +20.0%  common   main > solve > spmv
  -0.500   0.500  0.000  -100.0%  removed  main > io
  +0.500   2.000  2.500   +25.0%  common   main > solve

Changed call paths (time (inc), delta and before → after):
+2.000 main (8.500 → 10.500, +23.5%)
├─ -0.500 io (0.500 → 0.000, -100.0%) [removed]
└─ +2.500 solve (7.000 → 9.500, +35.7%)
   ├─ +1.000 mpi (0.000 → 1.000, new) [added]
   └─ +1.000 spmv (5.000 → 6.000, +20.0%)
"""


def test_diff_output_exact(files):
    b, a = files
    code, out, err = run("diff", b, a, "--threshold", "0", "--top", "4", "--no-color")
    assert (code, err) == (0, "")
    assert out == DIFF_OUTPUT.format(b=b, a=a)


def test_diff_fail_above_exit_codes(files):
    b, a = files
    code, out, err = run("diff", b, a, "--threshold", "0", "--fail-above", "30", "--no-tree")
    assert code == 3
    assert err == ("graphframe: 2 node(s) regressed by more than 30% (inclusive time (inc)): "
                   "solve, mpi; 1 of them only in the after profile\n")
    assert "Largest changes" in out
    code, out, err = run("diff", b, a, "--threshold", "0", "--fail-above", "50", "--no-tree",
                         "--metric", "time (inc)")
    assert code == 3 and "1 node(s)" in err and err.endswith(": mpi; 1 of them only in the after profile\n")
    # default noise threshold is 1% of the total (0.085): mpi's +1 still counts; 15% hides it
    code, out, err = run("diff", b, a, "--threshold", "15", "--fail-above", "40", "--no-tree")
    assert (code, err) == (0, "")
    assert out.endswith("\nNo node regressed by more than 40% (inclusive time (inc)).\n")
    # a profile against itself never fails
    code, out, err = run("diff", b, b, "--fail-above", "0")
    assert code == 0 and "(no changes above the noise threshold)" in out


def test_diff_options(files):
    b, a = files
    code, out, _ = run("diff", b, a, "--by", "name", "--no-tree", "--ascii", "--top", "2")
    assert code == 0 and "matched by function name" in out and "->" in out
    assert "  +2.500   7.000   9.500  +35.7%  common  solve\n" in out
    assert "   delta  before  after  change  status  function\n" in out
    code, out, _ = run("diff", b, a, "--normalize", "--no-tree", "--top", "1")
    assert code == 0 and "(percent of total)" in out
    code, out, _ = run("diff", b, a, "--rank", "0", "--depth", "1", "--no-color")
    assert code == 0 and "rank 0, matched" in out
    assert out.endswith("time (inc), delta and before → after):\n"
                        "+2.000 main (8.500 → 10.500, +23.5%)\n")
    code, out, _ = run("diff", b, a, "--color", "--top", "1")
    assert code == 0 and "\033[38;5;196m" in out


def test_diff_errors(files, tmp_path):
    b, a = files
    missing = tmp_path / "missing.json"
    code, out, err = run("diff", b, missing)
    assert (code, out) == (1, "")
    assert err == f"graphframe: error: {missing}: no such file or directory\n"
    junk = tmp_path / "junk.txt"
    junk.write_text("hello")
    code, out, err = run("diff", junk, a)
    assert code == 1 and "no reader recognises this input" in err and err.count("\n") == 1
    code, out, err = run("diff", b, a, "--metric", "nope")
    assert code == 1 and "metric 'nope' is not a numeric column of the before profile" in err
    assert run("diff", b)[0] == 2
    assert run("diff", b, a, "--by", "stack")[0] == 2
    assert run("diff", b, a, "--top", "many")[0] == 2


def test_convert_to_every_format(files, tmp_path):
    b, _ = files
    gf = load(b)
    code, out, err = run("convert", b, tmp_path / "x.gfz")
    assert (code, out, err) == (0, "", "")
    assert load(tmp_path / "x.gfz").dataframe.equals(gf.dataframe)
    assert run("convert", b, tmp_path / "x.json")[0] == 0
    assert read(tmp_path / "x.json").dataframe.equals(gf.dataframe)
    assert run("convert", b, tmp_path / "x.literal.json")[0] == 0
    assert json.loads((tmp_path / "x.literal.json").read_text()) == gf.to_literal()
    assert run("convert", b, tmp_path / "x.dot", "--metric", "time (inc)")[0] == 0
    assert (tmp_path / "x.dot").read_text() == gf.to_dot("time (inc)")
    assert run("convert", b, tmp_path / "x.folded", "--scale", "10", "--separator", ";")[0] == 0
    assert (tmp_path / "x.folded").read_text() == gf.to_flamegraph(scale=10, separator=";")
    assert run("convert", b, tmp_path / "x.speedscope.json")[0] == 0
    assert json.loads((tmp_path / "x.speedscope.json").read_text())["profiles"][0]["weights"] \
        == [1.0, 0.5, 2.0, 5.0]
    # any readable input, and standard output for text formats
    code, out, _ = run("convert", tmp_path / "x.json", "-", "--to", "folded", "--scale", "1000")
    assert code == 0 and out == gf.to_flamegraph(scale=1000)


def test_convert_multi_rank_options(tmp_path):
    src = example_graphframe().save(tmp_path / "ex.gfz")
    code, out, _ = run("convert", src, "-", "--to", "folded", "--rank", "3", "--scale", "100")
    assert code == 0 and out.splitlines()[0] == "main 10"
    assert out == example_graphframe().to_flamegraph(rank=3, scale=100)
    code, out, _ = run("convert", src, "-", "--to", "dot", "--aggregate", "max")
    assert code == 0 and out == example_graphframe().to_dot(aggregate="max")


def test_convert_errors(files, tmp_path):
    b, _ = files
    code, _, err = run("convert", b, tmp_path / "x.abc")
    assert code == 2 and "cannot tell the output format from" in err and "--to" in err
    code, _, err = run("convert", b, "-", "--to", "graphframe")
    assert code == 2 and "binary and cannot be written to stdout" in err
    code, _, err = run("convert", b, tmp_path / "no" / "dir" / "x.dot")
    assert code == 1 and "cannot write" in err
    code, _, err = run("convert", tmp_path / "missing.gfz", tmp_path / "x.dot")
    assert code == 1 and "no such file or directory" in err
    assert run("convert", b)[0] == 2
    assert run("convert", b, "-", "--to", "pdf")[0] == 2


INFO = """\
path:      {p}
format:    graphframe archive, format version 1 (written by graphframe 0.1.0)
graph:     20 nodes, 19 edges, 1 root (tree), max depth 4
rows:      80 (index: node, rank)
ranks:     4 (0..3)
exclusive: time
inclusive: time (inc)
pairs:     time -> time (inc)
default:   time
columns:   name
metadata:
  source: <example>
  format: example
  application: heat-diffusion solver
  mpi.world.size: 4
"""


def test_info(tmp_path):
    p = example_graphframe().save(tmp_path / "ex.gfz")
    code, out, err = run("info", p)
    assert (code, err) == (0, "")
    assert out == INFO.format(p=p)
    lit = tmp_path / "lit.json"
    lit.write_text(json.dumps([{"frame": {"name": "main"}, "metrics": {"time": 2.0}}]))
    code, out, _ = run("info", lit)
    assert code == 0
    assert out.splitlines()[1] == ("format:    literal (Hatchet literal: JSON list of nested "
                                   "{frame, metrics, children} dicts)")
    assert "rows:      1 (index: node)" in out
    assert out.endswith(f"metadata:\n  source: {lit}\n  format: literal\n")
    code, _, err = run("info", tmp_path / "nope")
    assert code == 1 and "no such file or directory" in err


def test_tree_reads_archives(tmp_path):
    p = example_graphframe().save(tmp_path / "ex.gfz")
    code, out, _ = run("tree", p, "--no-header", "--depth", "1")
    assert (code, out) == (0, "0.100 main\n")


def test_module_entry_point_exit_status(files):
    b, a = files
    proc = subprocess.run([sys.executable, "-m", "graphframe", "diff", str(b), str(a),
                           "--fail-above", "30", "--threshold", "0"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 3 and proc.stderr.startswith("graphframe: 2 node(s) regressed")


def test_diff_metric_brings_its_partner(files):
    b, a = files
    code, out, err = run("diff", b, a, "--metric", "time", "--no-tree", "--top", "1")
    assert (code, err) == (0, "")
    assert "Largest changes, inclusive (time (inc)):" in out
    assert "Largest changes, exclusive (time):" in out


@pytest.fixture
def exclusive_only(tmp_path):
    """The pair of ``files`` without inclusive columns (like Caliper's json-split)."""
    paths = []
    for name, gf in zip(("before", "after"), pair(ranks=0)):
        gf = replaced(gf, dataframe=gf.dataframe.drop(columns=["time (inc)"]), inc_metrics=[],
                         inclusive_of={})
        paths.append(gf.save(tmp_path / f"{name}-exc.gfz"))
    return paths


def test_diff_of_exclusive_only_profiles_shows_both_forms(exclusive_only, files):
    b, a = exclusive_only
    code, out, err = run("diff", b, a, "--threshold", "0", "--top", "4", "--no-color")
    assert (code, err) == (0, "")
    # the inclusive form is summed from the exclusive values: the same output as for
    # profiles that carry inclusive columns, apart from the note on the metric line
    expected = DIFF_OUTPUT.format(b=b, a=a).replace(
        "metric time (inc),", "metric time (inc) (summed from time: the profiles have no "
        "inclusive values),")
    assert out == expected


def test_fail_kind_chooses_inclusive_or_exclusive(exclusive_only):
    b, a = exclusive_only
    # inclusive (default): solve +35.7%, mpi new; main grew 23.5% only
    code, _, err = run("diff", b, a, "--threshold", "0", "--fail-above", "30", "--no-tree")
    assert code == 3
    assert err == ("graphframe: 2 node(s) regressed by more than 30% (inclusive time (inc)): "
                   "solve, mpi; 1 of them only in the after profile\n")
    # exclusive: mpi new, solve's own time +25%, spmv +20%
    code, _, err = run("diff", b, a, "--threshold", "0", "--fail-above", "21", "--no-tree",
                       "--fail-kind", "exclusive")
    assert code == 3
    assert err == ("graphframe: 2 node(s) regressed by more than 21% (exclusive time): "
                   "mpi, solve; 1 of them only in the after profile\n")
    code, out, err = run("diff", b, a, "--threshold", "0", "--fail-above", "30", "--no-tree",
                         "--fail-kind", "exclusive")
    assert code == 3 and err.endswith("(exclusive time): mpi; 1 of them only in the after profile\n")
    assert run("diff", b, a, "--fail-above", "1", "--fail-kind", "both")[0] == 2


def test_top_must_be_positive(files, capsys):
    b, a = files
    for bad in ("-1", "0"):
        code, out, _ = run("diff", b, a, "--top", bad)
        assert (code, out) == (2, "")
        err = capsys.readouterr().err  # argparse writes usage errors to sys.stderr
        assert f"argument --top: {bad} rows: give 1 or more" in err
    from graphframe.cli.common import UsageError
    from graphframe.cli.diff import diff_report
    with pytest.raises(UsageError, match="--top -1: give a number of rows, 1 or more"):
        diff_report(str(b), str(a), top=-1)


def test_convert_to_an_archive_that_cannot_be_written(files, tmp_path):
    b, _ = files
    target = tmp_path / "nodir" / "x.gfz"
    code, out, err = run("convert", b, target)
    assert (code, out) == (1, "")
    # the words every writing command uses (issue 33 item 5)
    assert err == (f"graphframe: error: {target}: cannot write: the folder "
                   f"{target.parent} does not exist\n")
    folder = tmp_path / "folder.gfz"
    folder.mkdir()
    code, out, err = run("convert", b, folder)
    assert (code, out) == (1, "")
    assert err == f"graphframe: error: {folder}: cannot write: it is a directory; give a " \
                  "file name in it\n"


def test_diff_with_a_rank_the_profiles_lack(tmp_path):
    before, after = pair(ranks=2)
    b, a = before.save(tmp_path / "b.gfz"), after.save(tmp_path / "a.gfz")
    code, out, err = run("diff", b, a, "--rank", "7")
    assert (code, out) == (1, "")
    assert err == "graphframe: error: rank=7 does not exist; the ranks are 0, 1\n"


def test_diff_of_unrelated_profiles_says_so_under_fail_above(tmp_path):
    """Issue 19 item 2: nothing matches -> a note, and regressions say they are unmatched."""
    from graphframe import GraphFrame
    b = GraphFrame.from_lists(("main", "solve", "io")).save(tmp_path / "b.gfz")
    a = GraphFrame.from_lists(("start", ("solve", "io", "mpi"))).save(tmp_path / "a.gfz")
    code, out, err = run("diff", b, a, "--fail-above", "10", "--no-tree")
    assert "Note: only 0 of 7 nodes are in both profiles (0%)" in out
    assert "try --by name" in out
    assert code == 3
    assert err.startswith("graphframe: 4 node(s) regressed by more than 10% ")
    assert err.endswith("; 4 of them only in the after profile, and only 0 of 7 nodes are in "
                        "both profiles (0%): most changes compare a node with nothing; check "
                        "that both are profiles of the same program, or try --by name\n")


def test_diff_pairs_metrics_named_differently(tmp_path):
    """Issue 19 item 6: --pair auto / --pair BEFORE=AFTER; the error says how."""
    from graphframe import GraphFrame
    from graphframe.diffing.metric_pairs import rename_metrics
    base = GraphFrame.from_lists(("main", "solve"))
    b = rename_metrics(base, {"time": "cycles (E)", "time (inc)": "cycles (I)"}).save(
        tmp_path / "old.gfz")
    a = rename_metrics(base, {"time": "cycles", "time (inc)": "cycles (inc)"}).save(
        tmp_path / "new.gfz")
    # issue 33 item 4: spellings pair by themselves (--pair auto is the default)
    for pairs in ([], ["--pair", "auto"], ["--pair", "cycles (E)=cycles", "--pair",
                                           "cycles (I)=cycles (inc)"]):
        code, out, err = run("diff", b, a, "--no-tree", *pairs)
        assert (code, err) == (0, "")
        assert "metric cycles (inc), mean over ranks" in out
    code, out, err = run("diff", b, a, "--pair", "cycles")
    assert code == 2 and err == ("graphframe: error: --pair cycles: write BEFORE=AFTER (a metric "
                                 "of each profile), or auto\n")
