"""Sampled frames print distinguishably (issue 33 item 14): TAU ``[SAMPLE]`` siblings that
differ only by source line show the line; an unresolved Caliper frame shows ``<unknown>``."""

import graphframe as gf_
from graphframe_readers import ProfileBuilder
from graphframe_readers.testing import write_cali

TAU = '''6 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls #
".TAU application" 1 1 10 110 0 GROUP="TAU_DEFAULT"
"[CONTEXT] .TAU application" 0 0 0 100 0 GROUP="TAU_SAMPLE_CONTEXT"
".TAU application => [CONTEXT] .TAU application" 0 0 0 100 0 GROUP="TAU_SAMPLE_CONTEXT|TAU_CALLPATH"
"[SAMPLE] compute [{/src/matmult.c} {101}]" 0 0 60 60 0 GROUP="TAU_UNWIND"
".TAU application => [CONTEXT] .TAU application => [SAMPLE] compute [{/src/matmult.c} {101}]" 0 0 60 60 0 GROUP="TAU_UNWIND|TAU_CALLPATH"
".TAU application => [CONTEXT] .TAU application => [SAMPLE] compute [{/src/matmult.c} {105}]" 0 0 40 40 0 GROUP="TAU_UNWIND|TAU_CALLPATH"
0 aggregates
'''


def test_tau_samples_on_different_lines_show_the_line(tmp_path):
    (tmp_path / "profile.0.0.0").write_text(TAU)
    gf = gf_.read(tmp_path)
    assert gf.tree(color=False).splitlines()[2:] == [
        "110.000 .TAU application",
        "└─ 100.000 [CONTEXT] .TAU application",
        "   ├─ 60.000 [SAMPLE] compute /src/matmult.c:101",
        "   └─ 40.000 [SAMPLE] compute /src/matmult.c:105",
    ]


def test_distinct_labels_keep_the_file_alone():
    gf = gf_.GraphFrame.from_literal([
        {"frame": {"name": "main"}, "metrics": {"time": 1.0}, "attributes": {"file": "a.c",
                                                                          "line": 3},
         "children": [{"frame": {"name": "f"}, "metrics": {"time": 2.0},
                       "attributes": {"file": "a.c", "line": 7}}]}])
    assert gf.tree(color=False).splitlines()[2:] == ["1.000 main a.c", "└─ 2.000 f a.c"]


def test_unresolved_caliper_frame_is_named(tmp_path):
    b = ProfileBuilder("sampled")
    b.add_nodes([-1, 0, 1], {"name": ["main", "", "solve"]})
    b.add_rows([0, 1, 2], {"time": [1.0, 2.0, 3.0]})
    path = tmp_path / "sampled.cali"
    write_cali(b.build(["time"]), path)
    gf = gf_.read(path)
    assert gf.dataframe["name"].tolist() == ["main", "<unknown>", "solve"]
    assert gf.tree(color=False).splitlines()[2:] == [
        "1.000 main", "└─ 2.000 <unknown>", "   └─ 3.000 solve"]
