"""The profile-reader checks (graphframe_readers.testing.READER_CHECKS) on every built-in format.

One test per (input, check): ``test_reader[tau-hatchet-tau-cpi-mpi-truncate]``. The inputs are
real files of ``../shared/data`` (skipped without it) and, for the formats the corpus has no
file of, files written here by graphframe's own writers. A new profile format gets the suite
by adding its input to ``SUBJECTS``.
"""

from __future__ import annotations

import pytest

import graphframe_readers
from graphframe_readers.testing import READER_CHECKS, ReaderSubject, check_subject
from graphframe_readers.testing.checks import pairs

SUBJECTS = (
    ReaderSubject("literal", "literal/hatchet_graph_literal.json"),
    ReaderSubject("hatchet-json", "<written>/gf.json"),
    ReaderSubject("caliper-json", "caliper/hatchet/caliper-lulesh-json/"
                                  "lulesh-annotation-profile.json"),
    ReaderSubject("caliper", "caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali"),
    ReaderSubject("hpctoolkit", "hpctoolkit/hatchet-cpi-database"),
    ReaderSubject("hpctoolkit-latest", "hpctoolkit/hpcviewer-inline-v4-database",
                  skip=("truncate", "flip"),
                  why="profile.db's values are not checksummed: a damaged value reads"),
    ReaderSubject("gprof-dot", "gprof2dot/hatchet/callgrind.dot.64042.0.1"),
    ReaderSubject("cprofile", "cprofile/hatchet/cprofile-cycle.pstats"),
    ReaderSubject("pyinstrument", "pyinstrument/hatchet/pyinstrument-hatchet-profile.json"),
    ReaderSubject("timemory", "timemory/hatchet/wall.tree.json"),
    ReaderSubject("tau", "tau/hatchet-tau-cpi-mpi"),
    ReaderSubject("perfflowaspect", "<written>/run.pfw"),
    ReaderSubject("callgrind", "gprof2dot/generated-callgrind/callgrind.out.workload"),
    ReaderSubject("gprof", "gprof2dot/generated-gprof/workload.gprof.txt"),
    ReaderSubject("perf-script", "<written>/perf.txt"),
    ReaderSubject("mono-mlpd", "traces/mono-mlpd/mlpd/calls_alloc.mlpd"),
)

PAIRS = pairs(SUBJECTS, READER_CHECKS)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The inputs graphframe writes itself (formats the shared corpus has no file of)."""
    from graphframe.examples import example_graphframe
    from graphframe_readers.testing import generate_perf_script

    folder = tmp_path_factory.mktemp("written")
    (folder / "gf.json").write_text(example_graphframe().to_json())
    generate_perf_script(folder / "perf.txt", samples=200)
    (folder / "run.pfw").write_text(
        '[{"name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 90, "ph": "X"},\n'
        '{"name": "solve", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "ph": "X"},\n'
        '{"name": "io", "pid": 1, "tid": 2, "ts": 5, "dur": 20, "ph": "X"}]\n')
    return folder


def _root(subject, shared_data, written):
    return written.parent if subject.path.startswith("<written>") else shared_data


@pytest.mark.parametrize("subject, check", PAIRS, ids=[f"{s.id}-{c.name}" for s, c in PAIRS])
def test_reader(subject, check, request, written, tmp_path):
    if subject.path.startswith("<written>"):
        subject = ReaderSubject(subject.format, str(written / subject.path.split("/", 1)[1]),
                                dict(subject.options), subject.skip, subject.why)
        root = None
    else:
        root = request.getfixturevalue("shared_data")
        if not (root / subject.path).exists():
            pytest.skip(f"{subject.path} is not in the corpus")
    cases = check_subject(subject, tmp_path, root=root, checks=[check.name])
    assert cases and all(c.ok for c in cases)


def test_every_builtin_profile_format_has_a_subject():
    assert {s.format for s in SUBJECTS} == set(graphframe_readers.formats())


def test_every_check_runs_somewhere():
    assert {c.name for _, c in PAIRS} == {c.name for c in READER_CHECKS}


def test_a_skipped_check_says_why():
    assert all(s.why for s in SUBJECTS if s.skip)
