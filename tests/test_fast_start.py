"""Fast start: ``import graphframe`` and ``graphframe tree FILE`` load no optional package.

networkx (``to_networkx``), pydot (the DOT fallback parser), matplotlib (plots),
scipy, tqdm (progress bars), the diff, the ensemble package, dask and the
Parquet writer load with their first use. Timings are measured by scripts, not here (see docs/benchmarks.md,
"Start-up time"); these tests check what is loaded, which does not vary.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from graphframe_readers.testing import sample_profile, write_cali

ROOT = Path(__file__).resolve().parent.parent
LAZY = ("networkx", "pydot", "matplotlib", "scipy", "tqdm", "pyarrow.parquet",
        "graphframe.diffing", "graphframe.cli", "graphframe.ensemble", "dask", "distributed")


def loaded_after(code: str):
    """The lazily loaded modules present in ``sys.modules`` after ``code`` runs."""
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\n"
                          f"print(' '.join(m for m in {LAZY!r} if m in sys.modules))"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_import_graphframe_loads_none_of_the_optional_packages():
    assert loaded_after("import graphframe") == []


def test_import_graphframe_loads_no_reader_family():
    out = subprocess.run([sys.executable, "-c", "import sys, graphframe\n"
                          "print(' '.join(sorted({m.split('.')[1] for m in sys.modules\n"
                          "                       if m.startswith('graphframe_readers.')})))"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    # every family loads when a file of its format is read (the Hatchet-named constructors
    # and the JSON layouts too); the query language, the renderers, the operations and the
    # plots load with their first use
    loaded = set(out.stdout.split())
    assert "registry" in loaded
    assert loaded.isdisjoint({"hatchet", "caliper", "hpctoolkit", "dot", "cprofile",
                              "pyinstrument", "tau", "timemory", "testing", "traces"})


def test_import_graphframe_loads_only_the_model():
    out = subprocess.run([sys.executable, "-c", "import sys, graphframe\n"
                          "print(' '.join(sorted(m for m in sys.modules\n"
                          "                      if m.startswith('graphframe.'))))"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = out.stdout.split()
    for later in ("graphframe.query", "graphframe.render", "graphframe.ops.filter",
                  "graphframe.io.dispatch", "graphframe.io.resolve", "graphframe.plot",
                  "graphframe.io.archive", "graphframe.io.json"):
        assert not any(m == later or m.startswith(later + ".") for m in loaded), later


def test_the_tree_command_on_a_small_cali_loads_none_but_the_cli(tmp_path):
    path = tmp_path / "small.cali"
    write_cali(sample_profile(), path)
    code = ("import contextlib, io\nfrom graphframe.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    assert main(['tree', {str(path)!r}, '--no-color']) == 0\n"
            "assert 'main' in out.getvalue()")
    assert loaded_after(code) == ["graphframe.cli"]


def test_the_lazy_names_still_work():
    pytest.importorskip("networkx", reason="to_networkx needs networkx")
    assert loaded_after("import graphframe\nd = graphframe.diff\n"
                        "g = graphframe.GraphFrame.from_lists(('a', 'b')).graph.to_networkx()"
                        ) == ["networkx", "graphframe.diffing"]


def test_from_timeseries_default_level_is_the_readers():
    # the default is spelled out so that the signature does not import the Caliper family
    import inspect

    from graphframe import GraphFrame
    from graphframe_readers.caliper.timeseries import LEVEL

    level = inspect.signature(GraphFrame.from_timeseries).parameters["level"].default
    assert level == LEVEL == "loop.start_iteration"


def test_rank_stats_default_is_the_kernels():
    from graphframe.graphframe import DEFAULT_RANK_STATS
    from graphframe.kernels.level_stats import DEFAULT_STATS

    assert DEFAULT_RANK_STATS == DEFAULT_STATS
