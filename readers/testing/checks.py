"""Named checks: the shape shared by the conformance suites of readers and decoders.

A :class:`Check` is a name, a one-line description and a function; a suite
is a tuple of checks (:data:`graphframe_readers.testing.decoders.DECODER_CHECKS`
for trace decoders). Each check applies to a *subject* (what is checked: a
trace and what is known about it) and returns the :class:`Case` results it
ran; :func:`run_check` runs one check by name and raises an
:class:`AssertionError` listing every case that failed, so each check is
its own pytest id::

    @pytest.mark.parametrize("subject, check", pairs(SUBJECTS, DECODER_CHECKS), ids=...)
    def test_decoder(subject, check, tmp_path):
        run_check(check, subject, tmp_path)

Examples
--------
>>> def positive(subject, tmp):
...     return [Case("positive", str(subject), ok=subject > 0, detail="")]
>>> suite = (Check("positive", positive, "the number is above 0"),)
>>> [c.name for c in run_check(find_check(suite, "positive"), 3, None)]
['positive']
>>> run_check(suite[0], -1, None)
Traceback (most recent call last):
...
AssertionError: check 'positive' failed for -1 in 1 of 1 cases:
  -1: 
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Sequence, Tuple


@dataclass
class Case:
    """The result of one case of a check: its name, what was done, ok or not and why."""

    name: str
    label: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class Check:
    """A named check: ``function(subject, tmp_dir) -> list of Case``.

    ``applies(subject)`` tells whether the check has anything to do for a
    subject (a removed-member check needs a trace of several files).
    """

    name: str
    function: Callable[[Any, Any], List[Case]]
    description: str
    applies: Callable[[Any], bool] = field(default=lambda subject: True)


def find_check(suite: Sequence[Check], name: str) -> Check:
    """The check called ``name`` in ``suite`` (KeyError listing the names otherwise)."""
    for check in suite:
        if check.name == name:
            return check
    raise KeyError(f"no check {name!r}; the checks are {', '.join(c.name for c in suite)}")


def run_check(check: Check, subject: Any, tmp_dir: Any) -> List[Case]:
    """Run one check; AssertionError naming every failed case, else the cases."""
    cases = check.function(subject, tmp_dir)
    failed = [c for c in cases if not c.ok]
    if failed:
        lines = "\n".join(f"  {c.label}: {c.detail}" for c in failed)
        raise AssertionError(f"check {check.name!r} failed for {subject} in {len(failed)} "
                             f"of {len(cases)} cases:\n{lines}")
    return cases


def pairs(subjects: Iterable[Any], suite: Sequence[Check]) -> List[Tuple[Any, Check]]:
    """Every (subject, check) where the check applies and the subject does not list it in
    its ``skip``, subjects first: pytest parameters."""
    return [(s, c) for s in subjects for c in suite
            if c.applies(s) and c.name not in getattr(s, "skip", ())]
