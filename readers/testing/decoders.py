"""``check_decoder``: the named checks every trace decoder (ours or a plugin's) must pass.

A :class:`DecoderSubject` describes one trace of a format: where it is, which
files make it up, which of them are text or gzip-compressed. Each check in
:data:`DECODER_CHECKS` copies the trace into a temporary folder, damages the
copy in one way per case, and reads it in a child process under a time and a
memory limit (:func:`~graphframe_readers.testing.isolation.run_isolated`:
20 s, 2 GiB). A case passes when the read ends in a clean way:

- a :class:`~graphframe_readers.errors.ReadError` whose message names the
  damaged (or given) file, with a position where the check asks for one;
- or, where the damage may leave a valid input (a flipped byte inside a
  name), a read without an error;

and fails on any other exception, a hang, a memory error, a crash, or a
silent read of an input that is certainly invalid (cut short, emptied,
invalid UTF-8 in a text part, a member missing).

=================  ===========================================================
check              what it does
=================  ===========================================================
``sniff``          sniffing names the format
``reads``          the intact trace reads, with events
``deterministic``  two reads give the same events and definitions
``files_closed``   no file of the trace is left open, after a read and after
                   a failed one
``empty``          each member emptied: a ReadError naming it
``truncate``       the largest member cut at :data:`CUTS` points, every other
                   member at its middle: a located ReadError naming it
``flip``           :data:`FLIPS` bytes of the largest member flipped, one at a
                   time (seeded): a clean read or a ReadError naming it
``invalid_utf8``   a 0xFF byte put in each text member (inside gzip for
                   compressed ones) at :data:`UTF8_POINTS` places: a ReadError
``remove_member``  each member removed: a ReadError naming it
``wrong_format``   files of other kinds given with ``format=``: a ReadError
                   naming the file given (never a read of a file beside it)
``gzip_bomb``      a compressed member replaced by gzip data inflating to
                   4 GiB: a ReadError, fast and in bounded memory
``huge_string``    50 MiB inserted in a text value: read in linear time, or a
                   ReadError naming the file
=================  ===========================================================

Adding a decoder: append one :class:`DecoderSubject` per sample trace to
:data:`graphframe_readers.testing.trace_subjects.TRACE_SUBJECTS` (or pass
your own subject to :func:`check_decoder`).

Examples
--------
>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "t.json")
>>> _ = open(p, "w").write('[{"ph": "X", "name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]')
>>> subject = DecoderSubject("chrome", p, text=("t.json",), cut_may_read=True)
>>> cases = check_decoder(subject, os.path.join(d, "checks"), checks=["sniff", "truncate"])
>>> [c.name for c in cases]
['sniff', 'truncate', 'truncate', 'truncate', 'truncate', 'truncate', 'truncate']
"""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import corrupt
from .checks import Case, Check, find_check, run_check
from .isolation import MEMORY_LIMIT, TIME_LIMIT, Outcome, run_isolated

#: Cut points of the largest member (the truncate check).
CUTS = 6
#: Byte flips of the largest member (the flip check).
FLIPS = 8
#: Places per text member where a 0xFF byte is put (the invalid_utf8 check).
UTF8_POINTS = 3
#: Seed of the flip positions.
SEED = 34
#: What the gzip bomb inflates to.
BOMB_BYTES = 4 << 30
#: The run inserted by the huge_string check.
HUGE_STRING = 50 << 20


@dataclass(frozen=True)
class DecoderSubject:
    """One sample trace of a format and what the checks need to know about it.

    Parameters
    ----------
    format : str
        The decoder's ``format_name``.
    path : str
        The trace as a user gives it (a file, a folder, a DUMPI ``.meta``);
        relative paths are taken from the ``root`` given to :func:`check_decoder`.
    members : sequence of str
        Glob patterns, relative to the trace's folder, of the files that make
        up the trace (default: the file itself, or every file of the folder).
    text : sequence of str
        Patterns of the members that are text (UTF-8); gzip members listed
        here are text once inflated.
    compressed : sequence of str
        Patterns of gzip-compressed members.
    optional : sequence of str
        Members the trace can do without (their removal or emptying may read).
    huge_string_after : bytes, optional
        Bytes of a text member after which :data:`HUGE_STRING` bytes of ``x``
        are inserted (inside a string value, so the input stays valid).
    cut_may_read : bool
        A truncated copy may be a valid trace (Chrome JSON without its ``]``).
    name : str
        The subject's name in test ids (default: the last part of ``path``).
    options : mapping
        Decoder options for every read.
    skip : sequence of str
        Checks not to run on this subject (say why where it is declared).
    requires : sequence of str
        Modules the decoder needs (the test suite skips the subject without them).
    """

    format: str
    path: str
    members: Sequence[str] = ()
    text: Sequence[str] = ()
    compressed: Sequence[str] = ()
    optional: Sequence[str] = ()
    huge_string_after: Optional[bytes] = None
    cut_may_read: bool = False
    name: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    skip: Sequence[str] = ()
    requires: Sequence[str] = ()

    @property
    def id(self) -> str:
        """``format-name``: the subject's pytest id."""
        return f"{self.format}-{self.name or Path(self.path).name}"

    def __str__(self) -> str:
        return self.id


class _Trace:
    """A subject resolved against a root: the folder, the given path, the member files."""

    def __init__(self, subject: DecoderSubject, root: Optional[Path]) -> None:
        path = Path(subject.path)
        if not path.is_absolute() and root is not None:
            path = Path(root) / path
        self.subject = subject
        self.given = path
        self.folder = path if path.is_dir() else path.parent
        if subject.members:
            found = {p for pat in subject.members for p in self.folder.glob(pat) if p.is_file()}
        elif path.is_dir():
            found = {p for p in path.rglob("*") if p.is_file()}
        else:
            found = {path}
        self.members = sorted(p.relative_to(self.folder).as_posix() for p in found)
        if not self.members:
            raise AssertionError(f"{subject}: no member files found under {self.folder}")

    def matches(self, member: str, patterns: Sequence[str]) -> bool:
        return any(fnmatch.fnmatch(member, p) for p in patterns)

    def largest(self) -> str:
        return max(self.members, key=lambda m: ((self.folder / m).stat().st_size, m))

    def copy(self, dest: Path) -> Tuple[Path, Path]:
        """The members copied into ``dest``; returns (the path to give, the copy's folder)."""
        if dest.exists():
            shutil.rmtree(dest)
        for m in self.members:
            target = dest / m
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.folder / m, target)
            os.chmod(target, 0o644)
        dest.mkdir(parents=True, exist_ok=True)
        return dest / self.given.relative_to(self.folder) if self.given != self.folder \
            else dest, dest


# ---------------------------------------------------------------- the child's work
def _summary_handler():
    from ..traces.handler import EventHandler

    class Summary(EventHandler):
        """Counts events and hashes every batch (no events kept; each string hashed once)."""

        def __init__(self) -> None:
            super().__init__()
            self.events = 0
            self.hash = hashlib.sha256()
            # id of a string table -> (the table, kept so that its id is never reused;
            # strings hashed)
            self.seen: Dict[int, Tuple[Any, int]] = {}

        def on_batch(self, batch) -> None:
            self.events += len(batch)
            for col in (batch.kind, batch.time, batch.rank, batch.thread, batch.name):
                self.hash.update(col.tobytes())
            table = batch.strings.strings
            start = self.seen.get(id(batch.strings), (None, 0))[1]
            for text in table[start:]:
                self.hash.update(text.encode("utf-8", "replace") + b"\0")
            self.seen[id(batch.strings)] = (batch.strings, len(table))

    return Summary()


def read_summary(path: Any, format: Optional[str], options: Mapping[str, Any]) -> Dict[str, Any]:
    """Decode ``path`` into a handler that keeps no events; its count, digest, metadata."""
    from ..traces.registry import decode

    handler = _summary_handler()
    decode(path, handler, format, **dict(options))
    return {"events": handler.events, "digest": handler.hash.hexdigest()[:16],
            "metadata": repr(sorted(handler.definitions.metadata.items(), key=str))}


def _sniff(path: Any) -> str:
    from ..traces.registry import sniff_trace

    return sniff_trace(path)


def _open_files_under(folder: str) -> List[str]:
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(folder + os.sep):
            out.append(target)
    return sorted(out)


def _reads_and_closes(good: str, bad: str, folder: str, format: str,
                      options: Mapping[str, Any]) -> List[str]:
    read_summary(good, format, options)
    try:
        read_summary(bad, format, options)
    except Exception:  # noqa: BLE001 - what the error is, the other checks judge
        pass
    return _open_files_under(folder)


# ---------------------------------------------------------------- judging outcomes
def _isolated(func, *args) -> Outcome:
    from ..traces.registry import trace_formats

    trace_formats()  # import every decoder here once, not in each child
    return run_isolated(func, *args, time_limit=TIME_LIMIT, memory_limit=MEMORY_LIMIT)


def _judge(outcome: Outcome, names: Sequence[Path], *, may_read: bool,
           located: bool = False) -> Tuple[bool, str]:
    """A clean end: a ReadError naming one of ``names`` (located when asked), or a read
    when ``may_read``."""
    if outcome.status == "ok":
        return may_read, "" if may_read else "read without an error: " + \
            f"{outcome.value['events']} events (a certainly invalid input read silently)"
    if outcome.status != "error":
        return False, outcome.describe()
    if not outcome.is_read_error:
        return False, f"a foreign exception {outcome.describe()}\n{outcome.traceback}"
    if not any(str(n) in outcome.message for n in names):
        return False, f"the error does not name {names[0]}: {outcome.message}"
    if located and not outcome.position:
        return False, f"the error has no position: {outcome.message}"
    return True, outcome.message


def _case(name: str, label: str, outcome: Outcome, verdict: Tuple[bool, str]) -> Case:
    ok, detail = verdict
    return Case(name, label, ok, detail, outcome.seconds)


def _damaged_read(trace: _Trace, tmp: Path, label: str, member: str, data: Optional[bytes],
                  ) -> Tuple[Outcome, List[Path]]:
    """Copy the trace, replace ``member`` by ``data`` (None: remove it), read the copy."""
    given, folder = trace.copy(tmp / label)
    target = folder / member
    if data is None:
        target.unlink()
    else:
        target.write_bytes(data)
    outcome = _isolated(read_summary, str(given), trace.subject.format, trace.subject.options)
    return outcome, [target, given]


# ---------------------------------------------------------------- the checks
def _check_sniff(subject: DecoderSubject, tmp: Path, root: Optional[Path] = None) -> List[Case]:
    trace = _Trace(subject, root)
    out = _isolated(_sniff, str(trace.given))
    ok = out.status == "ok" and out.value == subject.format
    return [Case("sniff", str(trace.given), ok,
                 "" if ok else f"sniffed as {out.value!r}" if out.status == "ok"
                 else out.describe(), out.seconds)]


def _check_reads(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    out = _isolated(read_summary, str(trace.given), subject.format, subject.options)
    ok = out.status == "ok" and out.value["events"] > 0
    return [Case("reads", str(trace.given), ok,
                 "" if ok else "no events" if out.status == "ok" else out.describe(),
                 out.seconds)]


def _check_deterministic(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    a = _isolated(read_summary, str(trace.given), subject.format, subject.options)
    b = _isolated(read_summary, str(trace.given), subject.format, subject.options)
    ok = a.status == b.status == "ok" and a.value == b.value
    return [Case("deterministic", str(trace.given), ok,
                 "" if ok else f"{a.describe()} / {b.describe()}: {a.value} != {b.value}",
                 a.seconds + b.seconds)]


def _check_files_closed(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    given, folder = trace.copy(tmp / "closed-good")
    bad_given, bad_folder = trace.copy(tmp / "closed-bad")
    victim = bad_folder / trace.largest()
    victim.write_bytes(victim.read_bytes()[: max(victim.stat().st_size // 2, 1)])
    out = _isolated(_reads_and_closes, str(given), str(bad_given), str(tmp), subject.format,
                    subject.options)
    ok = out.status == "ok" and not out.value
    return [Case("files_closed", str(trace.given), ok,
                 "" if ok else f"left open: {out.value}" if out.status == "ok"
                 else out.describe(), out.seconds)]


def _check_empty(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    cases = []
    for k, member in enumerate(trace.members):
        out, targets = _damaged_read(trace, tmp, f"empty-{k}", member, b"")
        optional = trace.matches(member, subject.optional)
        cases.append(_case("empty", f"{member} emptied", out,
                           _judge(out, targets, may_read=optional)))
    return cases


def _check_truncate(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    largest = trace.largest()
    cases = []
    plan = [(largest, n) for n in corrupt.cut_points((trace.folder / largest).stat().st_size,
                                                    CUTS)]
    plan += [(m, (trace.folder / m).stat().st_size // 2) for m in trace.members
             if m != largest and (trace.folder / m).stat().st_size > 1]
    for k, (member, length) in enumerate(plan):
        whole = (trace.folder / member).read_bytes()
        data = whole[:length]
        out, targets = _damaged_read(trace, tmp, f"cut-{k}", member, data)
        optional = trace.matches(member, subject.optional) or not whole[length:].strip()
        cases.append(_case("truncate", f"{member} cut to {length} bytes", out,
                           _judge(out, targets[:1], may_read=subject.cut_may_read or optional,
                                  located=True)))
    return cases


def _check_flip(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    member = trace.largest()
    data = (trace.folder / member).read_bytes()
    cases = []
    for k, at in enumerate(corrupt.flip_positions(len(data), FLIPS, SEED)):
        out, targets = _damaged_read(trace, tmp, f"flip-{k}", member, corrupt.flip(data, at))
        cases.append(_case("flip", f"{member} byte {at} flipped", out,
                           _judge(out, targets, may_read=True)))
    return cases


def _check_invalid_utf8(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    cases = []
    for member in trace.members:
        if not trace.matches(member, subject.text):
            continue
        raw = (trace.folder / member).read_bytes()
        packed = trace.matches(member, subject.compressed)
        text = gzip.decompress(raw) if packed else raw
        for k, at in enumerate(corrupt.text_positions(text, UTF8_POINTS)):
            bad = corrupt.invalid_utf8(text, at)
            data = corrupt.gzip_member(bad) if packed else bad
            out, targets = _damaged_read(trace, tmp, f"utf8-{len(cases)}", member, data)
            where = f"inflated byte {at}" if packed else f"byte {at}"
            cases.append(_case("invalid_utf8", f"{member}: 0xFF at {where}", out,
                               _judge(out, targets, may_read=False)))
    return cases


def _check_remove_member(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    cases = []
    for k, member in enumerate(trace.members):
        if trace.folder / member == trace.given:
            continue  # removing the file given is not a damaged trace but a wrong path
        out, targets = _damaged_read(trace, tmp, f"removed-{k}", member, None)
        optional = trace.matches(member, subject.optional)
        # the error names the file, or for the file that locates the others its kind
        names = [Path(member).name] + ([f"no {Path(member).suffix} file"]
                                       if Path(member).suffix else [])
        cases.append(_case("remove_member", f"{member} removed", out,
                           _judge(out, names, may_read=optional)))
    return cases


#: (file name, bytes) of inputs of other kinds for the wrong_format check
FOREIGN = (
    ("foreign.bin", bytes(range(256)) * 16),
    ("notes.txt", b"these are notes, not a trace\n" * 40),
    ("foreign.json", b'[{"ph": "X", "name": "main", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]\n'),
    ("foreign.gz", corrupt.gzip_member(b"hello\n" * 100)),
)


def _check_wrong_format(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    cases = []
    for k, (name, data) in enumerate(FOREIGN):
        if subject.format == "chrome" and name == "foreign.json":
            continue  # that one is a Chrome trace
        _, folder = trace.copy(tmp / f"foreign-{k}")
        target = folder / name  # beside the trace's own files: never read them instead
        target.write_bytes(data)
        out = _isolated(read_summary, str(target), subject.format, subject.options)
        cases.append(_case("wrong_format", f"{name} given with format={subject.format!r}", out,
                           _judge(out, [target], may_read=False)))
    return cases


def _check_gzip_bomb(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    packed = [m for m in trace.members if trace.matches(m, subject.compressed)]
    member = max(packed, key=lambda m: ((trace.folder / m).stat().st_size, m))
    cases = []
    head = gzip.decompress((trace.folder / member).read_bytes()).split(b"\n", 2)
    line = head[1] + b"\n" if len(head) > 1 and head[1] else b"0\n"
    for label, pattern, prefix in (("zeros", b"\0", b""),
                                   ("repeated line", line, head[0] + b"\n")):
        data = corrupt.gzip_member(prefix) + corrupt.gzip_bomb(BOMB_BYTES, pattern)
        out, targets = _damaged_read(trace, tmp, f"bomb-{len(cases)}", member, data)
        cases.append(_case("gzip_bomb", f"{member}: 4 GiB of {label}", out,
                           _judge(out, targets, may_read=False)))
    return cases


def _check_huge_string(subject, tmp, root=None) -> List[Case]:
    trace = _Trace(subject, root)
    marker = subject.huge_string_after
    for member in trace.members:
        if not trace.matches(member, subject.text):
            continue
        raw = (trace.folder / member).read_bytes()
        packed = trace.matches(member, subject.compressed)
        text = gzip.decompress(raw) if packed else raw
        at = text.find(marker)
        if at < 0:
            continue
        bad = corrupt.insert_run(text, at + len(marker), HUGE_STRING)
        data = corrupt.gzip_member(bad) if packed else bad
        out, targets = _damaged_read(trace, tmp, "huge", member, data)
        return [_case("huge_string", f"{member}: {HUGE_STRING >> 20} MiB after {marker!r}", out,
                      _judge(out, targets, may_read=True))]
    raise AssertionError(f"{subject}: no text member holds {marker!r}")


def _several(subject: DecoderSubject) -> bool:
    return bool(subject.members) and any(ch in "".join(subject.members) for ch in "*?[") \
        or len(subject.members) > 1


DECODER_CHECKS: Tuple[Check, ...] = (
    Check("sniff", _check_sniff, "sniffing names the format"),
    Check("reads", _check_reads, "the intact trace reads, with events"),
    Check("deterministic", _check_deterministic, "two reads give the same events"),
    Check("files_closed", _check_files_closed, "no file left open after a read or an error"),
    Check("empty", _check_empty, "each member emptied: a ReadError naming it"),
    Check("truncate", _check_truncate, "members cut short: a located ReadError naming them"),
    Check("flip", _check_flip, "flipped bytes: a clean read or a ReadError naming the file"),
    Check("invalid_utf8", _check_invalid_utf8, "0xFF in a text part: a ReadError",
          lambda s: bool(s.text)),
    Check("remove_member", _check_remove_member, "a member removed: a ReadError naming it",
          _several),
    Check("wrong_format", _check_wrong_format,
          "a file of another kind given with format=: a ReadError naming it"),
    Check("gzip_bomb", _check_gzip_bomb, "gzip inflating to 4 GiB: a ReadError, bounded",
          lambda s: bool(s.compressed)),
    Check("huge_string", _check_huge_string, "a 50 MiB value: linear time or a ReadError",
          lambda s: s.huge_string_after is not None),
)


def check_decoder(subject: DecoderSubject, tmp_dir: Any, *, root: Any = None,
                  checks: Optional[Sequence[str]] = None) -> List[Case]:
    """Run the decoder checks on one subject; AssertionError listing the failed cases.

    Parameters
    ----------
    subject : DecoderSubject
        The trace and what is known about it.
    tmp_dir : path-like
        Where damaged copies are written (one folder per case).
    root : path-like, optional
        Base of a relative ``subject.path``.
    checks : sequence of str, optional
        Names from :data:`DECODER_CHECKS` (default: every check that applies).

    Returns
    -------
    list of Case
        Every case run, in check order.
    """
    chosen = [find_check(DECODER_CHECKS, n) for n in checks] if checks is not None \
        else [c for c in DECODER_CHECKS if c.applies(subject) and c.name not in subject.skip]
    cases: List[Case] = []
    failures = []
    for check in chosen:
        folder = Path(tmp_dir) / check.name
        folder.mkdir(parents=True, exist_ok=True)
        bound = Check(check.name, lambda s, t, f=check.function: f(s, Path(t), _root(root)),
                      check.description, check.applies)
        try:
            cases += run_check(bound, subject, folder)
        except AssertionError as exc:
            failures.append(str(exc))
    if failures:
        raise AssertionError("\n".join(failures))
    return cases


def _root(root: Any) -> Optional[Path]:
    return Path(root) if root is not None else None


__all__ = ["CUTS", "DECODER_CHECKS", "DecoderSubject", "FLIPS", "check_decoder",
           "read_summary"]
