"""Scaling studies: the formulas, the drawn lines, tables from profiles, errors."""

import numpy as np
import pandas as pd
import pytest

from graphframe.errors import ArgumentError
from graphframe.plot import scaling, scaling_data, scaling_table
from tests.plot.profiles import SOLVER, build, matplotlib_agg

mpl = matplotlib_agg()
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def no_figures_left():
    plt.close("all")
    yield
    plt.close("all")



def table():
    return pd.DataFrame({"solve": [16.0, 8.5, 5.0, 4.0], "io": [1.0, 1.0, 1.2, 2.0]},
                        index=pd.Index([1, 2, 4, 8], name="ranks"))


def test_strong_scaling_formulas():
    d = scaling_data(table())
    assert d["ideal time"]["solve"].tolist() == [16.0, 8.0, 4.0, 2.0]
    assert np.allclose(d["speedup"]["solve"], [1.0, 16 / 8.5, 3.2, 4.0])
    assert np.allclose(d["efficiency"]["solve"], [1.0, 16 / 8.5 / 2, 0.8, 0.5])
    assert d["ideal speedup"].tolist() == [1.0, 2.0, 4.0, 8.0]


def test_weak_scaling_formulas_and_unsorted_keys():
    t = table().iloc[::-1]
    d = scaling_data(t, mode="weak")
    assert d["time"].index.tolist() == [1.0, 2.0, 4.0, 8.0]
    assert d["ideal time"]["io"].tolist() == [1.0] * 4
    assert np.allclose(d["efficiency"]["io"], [1.0, 1.0, 1 / 1.2, 0.5])
    assert np.allclose(d["speedup"]["io"], [1.0, 2.0, 4 / 1.2, 4.0])


def test_three_panels_whose_lines_hold_the_numbers():
    fig = scaling(table())
    time_ax, speed_ax, eff_ax = fig.axes
    d = scaling_data(table())
    solve, solve_ideal, io, io_ideal = time_ax.lines
    assert np.allclose(solve.get_ydata(), d["time"]["solve"])
    assert np.allclose(solve_ideal.get_ydata(), d["ideal time"]["solve"])
    assert solve_ideal.get_linestyle() == "--" and solve_ideal.get_color() == solve.get_color()
    assert np.allclose(io.get_xdata(), [1, 2, 4, 8])
    assert [t.get_text() for t in time_ax.get_legend().get_texts()] == ["solve", "io"]
    assert np.allclose(speed_ax.lines[1].get_ydata(), d["speedup"]["io"])
    assert np.allclose(speed_ax.lines[2].get_ydata(), [1, 2, 4, 8])  # ideal
    assert np.allclose(eff_ax.lines[0].get_ydata(), d["efficiency"]["solve"])
    assert eff_ax.lines[2].get_ydata()[0] == 1.0
    assert time_ax.get_xscale() == "log" and time_ax.get_xlabel() == "ranks"
    assert eff_ax.get_ylabel() == "parallel efficiency"


def test_panels_can_be_chosen_and_drawn_on_given_axes():
    fig, axes = plt.subplots(1, 2)
    out = scaling(table(), panels=["efficiency", "time"], ax=axes, log=False)
    assert out is fig and axes[0].get_ylabel() == "parallel efficiency"
    assert axes[1].get_xscale() == "linear"
    with pytest.raises(ArgumentError, match="give 2 Axes"):
        scaling(table(), panels=["time", "speedup"], ax=[axes[0]])
    with pytest.raises(ArgumentError, match="choose distinct ones of time, speedup"):
        scaling(table(), panels=["time", "time"])


def test_a_table_from_profiles_keyed_by_metadata_or_rank_count():
    runs = [build(SOLVER, np.array([0.5, 1.0, 8.0, 0.5, 2.0, 0.25]) / k,
                  metadata={"nprocs": k}) for k in (1, 2, 4)]
    t = scaling_table(runs, by="nprocs", top=2)
    assert t.index.tolist() == [1.0, 2.0, 4.0] and t.index.name == "nprocs"
    assert t.columns.tolist() == ["main", "main > solve"]
    assert np.allclose(t["main"], [12.25, 6.125, 3.0625])
    spmv = scaling_table(runs, by="nprocs", regions=["spmv"])
    assert spmv.columns.tolist() == ["main > solve > spmv"]
    ranked = [build(SOLVER, np.ones((6, r))) for r in (2, 4)]
    assert scaling_table(ranked, top=1).index.tolist() == [2.0, 4.0]


def test_bad_tables_and_profiles_are_errors():
    with pytest.raises(ArgumentError, match="2 or more distinct positive key values"):
        scaling(table().iloc[:1])
    with pytest.raises(ArgumentError, match="mode='fast': choose one of strong, weak"):
        scaling(table(), mode="fast")
    with pytest.raises(ArgumentError, match="non-empty DataFrame"):
        scaling([[1.0]])
    runs = [build(SOLVER, np.ones(6), metadata={"n": 1}), build(SOLVER, np.ones(6),
                                                                metadata={"n": 1})]
    with pytest.raises(ArgumentError, match="two profiles have n = 1.0"):
        scaling_table(runs, by="n")
    with pytest.raises(ArgumentError, match="by='ranks' is not in a profile's metadata"):
        scaling_table(runs, by="ranks")
    runs[1] = build(SOLVER, np.ones(6), metadata={"n": 2})
    with pytest.raises(ArgumentError, match="'MPI_Allreduce' matches 2 call paths"):
        scaling_table(runs, by="n", regions=["MPI_Allreduce"])
    with pytest.raises(ArgumentError, match="region 'nope' is in no profile"):
        scaling_table(runs, by="n", regions=["nope"])
    assert plt.get_fignums() == []
