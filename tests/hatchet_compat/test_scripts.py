"""Hatchet code runs unchanged with graphframe (issue 14): the acceptance scripts.

Each ``scripts/NN_topic.py`` is written as a Hatchet user writes (``import
hatchet as ht``, Hatchet's tutorials and user guide); ``shim/`` makes that
import resolve to graphframe. What the script prints must equal
``expected/NN_topic.txt``, which ``record.py`` took from real Hatchet 2024.1.3
(corrected where the script documents that Hatchet is wrong).

Scripts that fail today are strict xfails naming the issue 14 item that makes
them fail; when a fix lands, the xfail turns into an XPASS error and the mark
is removed with the fix.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import compat_runner
import record

XFAIL = {
}


def _params():
    for script in compat_runner.scripts():
        marks = ([pytest.mark.xfail(strict=True, reason=XFAIL[script.stem])]
                 if script.stem in XFAIL else [])
        yield pytest.param(script, id=script.stem, marks=marks)


# the scripts are Hatchet users' code: pandas 3.1 deprecating their `set_index(inplace=True)`
# (Hatchet's own tests build frames that way) is not ours to report
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.set_index")
@pytest.mark.parametrize("script", list(_params()))
def test_script_prints_what_hatchet_prints(script: Path, shared_data: Path) -> None:
    expected = (compat_runner.EXPECTED / f"{script.stem}.txt").read_text()
    with compat_runner.hatchet_is_graphframe():
        actual = compat_runner.run_script(script, shared_data)
    differing = compat_runner.differing_cells(expected, actual)
    assert actual == expected, f"cells that print something else than Hatchet: {differing}"


def test_every_script_has_its_expected_output() -> None:
    stems = {s.stem for s in compat_runner.scripts()}
    recorded = {p.stem for p in compat_runner.EXPECTED.glob("[0-9][0-9]_*.txt")}
    assert stems == recorded
    assert set(XFAIL) <= stems
    assert "hatchet 2024.1.3" in (compat_runner.EXPECTED / "VERSIONS.txt").read_text()


def test_runner_reports_a_failing_cell_and_runs_the_next(tmp_path: Path) -> None:
    script = tmp_path / "99_demo.py"
    script.write_text(textwrap.dedent("""\
        x = 2
        # %% divide
        print(x / 0)
        # %% after the failure
        print(x * 21)
    """))
    assert compat_runner.run_script(script, tmp_path) == (
        "# %% [0] setup\n"
        "# %% [1] divide\n"
        "!! ZeroDivisionError: division by zero\n"
        "# %% [2] after the failure\n"
        "42\n")


def test_differing_cells_names_the_cells() -> None:
    expected = "# %% [1] a\nx\n# %% [2] b\ny\n"
    assert compat_runner.differing_cells(expected, "# %% [1] a\nx\n# %% [2] b\nz\n") == ["# %% [2] b"]
    assert compat_runner.differing_cells(expected, "# %% [1] a\nx\n") == ["# %% [2] b"]
    assert compat_runner.differing_cells(expected, expected) == []


def test_corrections_replace_hatchets_lines(tmp_path: Path) -> None:
    script = tmp_path / "99_demo.py"
    script.write_text(textwrap.dedent("""\
        # HATCHET-WRONG (somewhere): why
        #   hatchet: 'bad 1'
        #   ours:    ['good 1', 'good 2']
        #   hatchet: ['x', 'y']
        #   ours:    []
    """))
    assert record.corrections(script) == [(["bad 1"], ["good 1", "good 2"]), (["x", "y"], [])]
    assert record.apply_corrections(script, "a\nbad 1\nx\ny\nb\n") == "a\ngood 1\ngood 2\nb\n"
    with pytest.raises(SystemExit, match="matches nothing"):
        record.apply_corrections(script, "a\nbad 1\nx\n")
