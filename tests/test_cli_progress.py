"""--progress on the command line: a bar on stderr for readers that report progress."""

import io

from graphframe.cli import main


def test_progress_bar_for_hpctoolkit(shared_data, capsys):
    out = io.StringIO()
    code = main(["tree", str(shared_data / "hpctoolkit" / "hatchet-cpi-database"), "--progress",
                 "--no-color", "--depth", "1"], stdout=out)
    assert code == 0
    assert out.getvalue().splitlines()[2].endswith("<program root> <unknown file>")
    err = capsys.readouterr().err
    assert "bytes of experiment.xml" in err and "4/4 metric files" in err


def test_progress_is_ignored_by_readers_without_it(tmp_path, capsys):
    p = tmp_path / "p.json"
    p.write_text('[{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]')
    out = io.StringIO()
    assert main(["tree", str(p), "--progress", "--no-header"], stdout=out) == 0
    assert out.getvalue() == "1.000 main\n"
    assert capsys.readouterr().err == ""
