"""Importing graphframe (and its plot package) costs no matplotlib and prints nothing."""

import subprocess
import sys
import textwrap

from tests.conftest import REPO


def run(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_importing_graphframe_and_the_accessor_does_not_import_matplotlib():
    done = run("""
        import sys
        import graphframe, graphframe.plot, graphframe.plot.report, graphframe.cli
        from graphframe.examples import example_graphframe
        gf = example_graphframe()
        accessor = gf.plot
        data = graphframe.plot.flame_data(gf)   # the data needs no matplotlib either
        print(len(data.layout), [m for m in sys.modules if m.split(".")[0] == "matplotlib"])
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "20 []\n"
    assert done.stderr == ""


def test_without_matplotlib_drawing_is_our_error_naming_the_extra():
    done = run("""
        import sys
        sys.modules["matplotlib"] = None     # as if it were not installed
        from graphframe.examples import example_graphframe
        from graphframe.plot import PlotDependencyError
        try:
            example_graphframe().plot.flamegraph()
        except PlotDependencyError as exc:
            print(type(exc).__mro__[1].__name__, exc)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("GraphframeError plots need matplotlib, which is not installed: "
                           "pip install \"graphframe[plot]\"\n")
