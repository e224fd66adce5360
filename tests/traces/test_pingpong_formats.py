"""The ping-pong program traced three ways: OTF2 (Score-P), HPCToolkit trace.db, Projections.

OTF2 and HPCToolkit traced the same MPI ping-pong (different runs, and
HPCToolkit samples, so times and call counts differ); their calling-context
trees must agree on the main regions: ``main`` at the root with
``MPI_Send``, ``MPI_Recv`` and ``MPI_Finalize`` below it, and send plus
receive dominating ``main`` apart from ``MPI_Init`` (which HPCToolkit's
trace starts after). The Projections trace is the Charm++ version of the
benchmark: no ``main`` or MPI calls, its work is in the ``Ping*`` entry
methods, which must hold the most non-idle time.
"""

from __future__ import annotations

import re
import warnings

import pytest

import graphframe as gf


def normal(name: str) -> str:
    """``PMPI_Send [libmpi.so]`` -> ``MPI_Send``; ``int main(int, char**)`` -> ``main``."""
    name = re.sub(r" \[.*\]$", "", name)
    name = re.sub(r"^PMPI_", "MPI_", name)
    return "main" if re.fullmatch(r"(int )?main(\(.*\))?", name) else name


def main_children(path) -> dict:
    """Normalised name of each child of the root -> inclusive time summed over ranks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = gf.read_trace(path).to_graphframe()
    graph, df = g.graph, g.dataframe.reset_index()
    (root,) = graph.root_ids
    names = df.drop_duplicates("node").set_index("node")["name"]
    assert normal(names[root]) == "main"
    inc = df.groupby("node")["time (inc)"].sum()
    out: dict = {}
    for child in graph.children_of(root).tolist():
        key = normal(names[child])
        out[key] = out.get(key, 0.0) + float(inc[child])
    return out


def test_otf2_and_hpctoolkit_trees_agree_on_the_main_regions(shared_data):
    pytest.importorskip("otf2", reason="the OTF2 decoder needs the optional otf2 package")
    otf2 = main_children(shared_data / "otf2" / "pipit-ping-pong-otf2")
    hpc = main_children(shared_data / "hpctoolkit" / "pipit-ping-pong-v4-database")
    assert set(hpc) == {"MPI_Send", "MPI_Recv", "MPI_Finalize"}
    assert set(hpc) <= set(otf2)
    for tree in (otf2, hpc):
        work = {k: v for k, v in tree.items() if k != "MPI_Init"}
        top_two = sorted(work, key=work.get, reverse=True)[:2]
        assert sorted(top_two) == ["MPI_Recv", "MPI_Send"]


def test_projections_ping_pong_work_is_in_the_ping_entry_methods(shared_data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tf = gf.read_trace(shared_data / "projections" / "pipit-ping-pong-projections")
    # the trace's names are categorical: observed=True (pandas 3's default) on pandas 2 too
    flat = tf.flat_profile(by="name").groupby(level="name", observed=True)["time"].sum()
    busy = flat.drop(["Idle", "Pack", "Unpack"])
    top = busy.sort_values(ascending=False).index[:3].tolist()
    assert all(name.startswith("Ping1::") for name in top)
