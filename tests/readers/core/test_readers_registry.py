"""The registry: formats, sniffing, dispatch and its errors (readers/registry.py).

The core tests live in tests/readers/core/, not in tests/readers/ itself: pytest puts a
test file's folder on sys.path, and tests/readers/ holds folders named like importable
packages (hatchet, pyinstrument), which would then shadow them as namespace packages.
"""

import json

import pytest

import graphframe_readers
from graphframe_readers import ReadError, UnknownFormatError


def test_registry_lists_formats_and_sniffs(tmp_path):
    assert graphframe_readers.formats()[:2] == ["literal", "hatchet-json"]
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"frame": {"name": "a"}, "metrics": {}}]))
    assert graphframe_readers.sniff(p) == "literal"
    q = tmp_path / "y.json"
    q.write_text(json.dumps({"graph": [], "dataframe": [], "dataframe_indices": ["node"]}))
    assert graphframe_readers.sniff(q) == "hatchet-json"


def test_unknown_input_lists_known_formats(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("hello")
    with pytest.raises(UnknownFormatError) as info:
        graphframe_readers.read(p)
    assert "literal" in str(info.value) and "hatchet-json" in str(info.value)
    assert str(p) in str(info.value)
    with pytest.raises(UnknownFormatError, match="unknown format 'nope'"):
        graphframe_readers.read(p, format="nope")


def test_missing_path_is_a_read_error(tmp_path):
    with pytest.raises(ReadError, match="no such file"):
        graphframe_readers.read(tmp_path / "absent.json")
    with pytest.raises(ReadError, match="no such file"):
        graphframe_readers.read(tmp_path / "absent.json", format="literal")
    with pytest.raises(ReadError, match="empty list"):
        graphframe_readers.read([])


def test_an_unknown_format_name_is_reported_against_the_file(tmp_path):
    p = tmp_path / "prof.json"
    p.write_text("[]")
    with pytest.raises(UnknownFormatError) as info:
        graphframe_readers.read(p, format="nope")
    assert info.value.source == str(p)
    assert str(info.value).startswith(f"{p}: unknown format 'nope' (expected one of the formats: ")


def test_every_format_knows_its_options():
    options = {name: graphframe_readers.format_info(name).options for name in graphframe_readers.formats()}
    assert options["hpctoolkit-latest"] == (
        "parallel_profiles_mode", "metric_names", "profile_ranks", "label_function_nodes",
        "names", "max_depth", "min_percentage_of_application_time",
        "min_percentage_of_parent_time", "progress")
    assert options["hpctoolkit"] == ("metrics", "ranks", "summary_only", "progress")
    assert options["caliper"] == ("native", "string_attributes", "node_ordering", "no_path",
                                  "progress")
    assert options["caliper-json"] == ("node_ordering", "no_path", "progress")
    assert options["timemory"] == ("select", "progress")
    for name in ("literal", "hatchet-json", "gprof-dot", "cprofile", "pyinstrument", "tau"):
        assert options[name] == ("progress",), name


def test_an_option_the_format_does_not_take_is_an_argument_error(tmp_path):
    p = tmp_path / "prof.json"
    p.write_text(json.dumps([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]))
    with pytest.raises(graphframe_readers.ArgumentError) as info:
        graphframe_readers.read(p, parallel_profiles_mode=True)
    assert str(info.value) == ("the literal reader has no option 'parallel_profiles_mode'; its "
                               "options are: progress")
    assert isinstance(info.value, graphframe_readers.GraphframeError) and isinstance(info.value, ValueError)
    with pytest.raises(graphframe_readers.ArgumentError, match="the gprof-dot reader has no option 'parser'"):
        graphframe_readers.read(p, format="gprof-dot", parser="pydot")
    assert graphframe_readers.read(p, progress=False).num_nodes == 1  # progress: every format's option


def test_graphframe_read_refuses_unknown_options_the_same_way(tmp_path):
    import graphframe
    from graphframe.errors import ArgumentError

    assert ArgumentError is graphframe_readers.ArgumentError
    p = tmp_path / "prof.json"
    p.write_text(json.dumps([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]))
    with pytest.raises(ArgumentError, match="^the literal reader has no option 'metrics'; its "
                                            "options are: progress$"):
        graphframe.read(p, metrics=["time"])


def test_an_empty_file_is_named_as_empty_not_unrecognised(tmp_path):
    import graphframe

    empty = tmp_path / "run.cali"
    empty.write_bytes(b"")
    for read in (graphframe_readers.read, graphframe.read):
        with pytest.raises(graphframe_readers.ReadError) as info:
            read(str(empty))
        assert not isinstance(info.value, graphframe_readers.UnknownFormatError)
        assert "the file is empty (0 bytes)" in str(info.value)
        assert str(empty) in str(info.value)


def test_suffix_and_marker_hints_are_the_formats_declared_ones():
    import importlib

    from graphframe_readers import registry

    suffixes, markers = {}, {}
    for module_name in registry.FORMAT_MODULES:
        info = registry._entry_of(importlib.import_module(module_name), module_name)
        if info.suffixes:
            suffixes[module_name] = info.suffixes
        if info.markers:
            markers[module_name] = info.markers
    assert registry.SUFFIX_HINTS == suffixes
    assert registry.MARKER_HINTS == markers


def test_a_file_is_offered_first_to_the_format_its_suffix_names(tmp_path):
    import subprocess
    import sys

    p = tmp_path / "trace.csv"
    p.write_text("Start (ns),End (ns),Duration (ns),Name,PID,TID,NameTree\n"
                 "10,30,20,main,7,7,:main\n")
    code = (f"import sys\nimport graphframe_readers.traces as rt\n"
            f"print(rt.sniff_trace({str(p)!r}))\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith("
            "'graphframe_readers.traces.') and m.count('.') == 2)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "nsight-nvtx-csv"
    loaded = out[1].split()
    for other in ("dumpi", "otf2", "projections", "recorder", "jvmgc"):
        assert f"graphframe_readers.traces.{other}" not in loaded


def test_a_folder_is_offered_first_to_the_format_its_files_name(tmp_path):
    import subprocess
    import sys

    from graphframe_readers import registry

    (tmp_path / "trace.db").write_bytes(b"")
    (tmp_path / "notes.sts").write_bytes(b"")
    assert registry._hinted_modules(tmp_path, b"") == [
        "graphframe_readers.traces.projections", "graphframe_readers.traces.hpctoolkit_trace"]
    assert registry._hinted_modules(tmp_path / "x.CSV", b"a") == [
        "graphframe_readers.traces.nsight.csv_export"]
    assert registry._hinted_modules(tmp_path / "x.txt", b"a") == []
