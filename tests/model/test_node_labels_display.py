"""Printed frames show each node as Hatchet and Thicket do (its frame), ids stay inside."""

import graphframe.thicket as th
from graphframe import GraphFrame
from graphframe.examples import example_graphframe

MAIN = "{'name': 'main', 'type': 'function'}"


def test_index_level_and_reset_column_print_frames():
    gf = example_graphframe()
    df = gf.dataframe
    text = df.head(2).to_string()
    assert text.splitlines()[2].startswith(MAIN + " 0")
    assert MAIN in repr(df) and "<th rowspan=\"2\" valign=\"top\">" + MAIN in df.head(2).to_html()
    flat = df.reset_index()
    assert flat.head(1).to_string().splitlines()[1].split("  ")[1].strip() == MAIN
    # the values stay int ids underneath: operations and lookups are unchanged
    assert str(df.index.levels[0].dtype) == "Int64"
    assert flat["node"].to_numpy(dtype="int64")[:2].tolist() == [0, 0]


def test_thicket_frames_print_frames_too():
    tk = th.Thicket.from_graphframes([GraphFrame.from_lists(("main", "solve"))] * 2)
    first = tk.dataframe.to_string().splitlines()[2]
    assert first.split()[:5] == ["{'name':", "'main',", "'type':", "'None'}", "0"]
    assert "{'name': 'solve', 'type': 'None'}" in tk.statsframe.dataframe.to_string()
