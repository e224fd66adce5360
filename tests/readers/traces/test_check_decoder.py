"""The decoder checks (graphframe_readers.testing.check_decoder) on every built-in trace format.

One test per (sample trace, check): ``test_decoder[chrome-workload.viztracer.json-truncate]``.
Each case runs in a child process limited to 20 s and 2 GiB beyond what it inherits. A new
decoder gets the suite by adding its sample traces to ``TRACE_SUBJECTS``.
"""

from __future__ import annotations

import importlib.util

import pytest

from graphframe_readers.testing.checks import pairs
from graphframe_readers.testing.decoders import DECODER_CHECKS, check_decoder
from graphframe_readers.testing.trace_subjects import TRACE_SUBJECTS

PAIRS = pairs(TRACE_SUBJECTS, DECODER_CHECKS)


@pytest.mark.parametrize("subject, check", PAIRS, ids=[f"{s.id}-{c.name}" for s, c in PAIRS])
def test_decoder(subject, check, shared_data, tmp_path):
    for module in subject.requires:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"the {subject.format} decoder needs {module}")
    if not (shared_data / subject.path).exists():
        pytest.skip(f"{subject.path} is not in the corpus")
    cases = check_decoder(subject, tmp_path, root=shared_data, checks=[check.name])
    assert cases and all(c.ok for c in cases)


def test_every_builtin_format_has_a_subject():
    import graphframe_readers.traces as rt

    assert {s.format for s in TRACE_SUBJECTS} == set(rt.trace_formats())


def test_every_check_runs_somewhere():
    assert {c.name for _, c in PAIRS} == {c.name for c in DECODER_CHECKS}
