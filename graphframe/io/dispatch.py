"""Reading one input into GraphFrame parts, whatever its kind: the ``read`` door.

Every way in to one GraphFrame goes through :func:`read_parts`:
``graphframe.read``, ``GraphFrame.read``, ``graphframe.load`` (archives only)
and every command of the CLI. What the path is comes from the resolver
(:func:`graphframe.io.resolve.resolve`); by its kind:

* ``archive`` (``GraphFrame.save``; sniffed by its first bytes, whatever its
  name): loaded (:mod:`graphframe.io.archive`);
* ``profile``: a JSON document in Hatchet's ``to_json`` layout is read exactly
  when graphframe wrote it (see :mod:`graphframe.io.json.read`); any other
  profile is decoded by :mod:`graphframe_readers` into a RawProfile and built
  into the graph and dataframe by :func:`graphframe.io.build.parts_from_raw`;
* ``trace``: its calling-context tree, built while the events stream through
  (:class:`graphframe_readers.traces.tree.CallTreeBuilder`), the same
  GraphFrame as ``read_trace(path).to_graphframe()``;
* ``ensemble`` (a folder of several profiles, a Thicket document, an Ensemble
  archive): not one GraphFrame; the error names the door that reads it.

Several files read as one profile (a list, or a directory of per-rank
files) must be the ranks of one run (:mod:`graphframe.io.runs`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import graphframe_readers
from graphframe_readers.errors import ReadError, UnknownFormatError

from ..errors import ArgumentError
from . import archive
from .build import parts_from_raw
from .json.read import read_json_parts
from .resolve import (ARCHIVE, ENSEMBLE_ARCHIVE, FOLDER, THICKET_JSON, Resolved, resolve)
from .resolve import formats as _all_formats
from .runs import ADVICE, check_one_run, list_name, several_files

__all__ = ["ARCHIVE", "formats", "load_parts", "read_parts", "sniff", "wrong_door"]


def formats() -> List[str]:
    """Every format :func:`read_parts` understands: profiles, traces, then ``"graphframe"``.

    Examples
    --------
    >>> formats()[-1], "literal" in formats(), "chrome" in formats()
    ('graphframe', True, True)
    """
    return _all_formats("profile") + _all_formats("trace") + [ARCHIVE]


def sniff(path: Any) -> str:
    """The format of ``path``, as the ``read`` door sees it (see :func:`resolve`).

    Raises :class:`~graphframe.UnknownFormatError` listing :func:`formats`
    when nothing recognises it.

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> p = GraphFrame.from_lists(("a", "b")).save(os.path.join(tempfile.mkdtemp(), "run"))
    >>> sniff(p)
    'graphframe'
    """
    return resolve(path).format


def read_parts(path: Any, format: Optional[str] = None, **options: Any) -> Dict[str, Any]:
    """The fields of a GraphFrame read from ``path``: ``GraphFrame(**read_parts(path))``.

    Parameters
    ----------
    path : str, path-like or list of them
        A profile file, a database directory, several files of one run, a
        trace (its calling-context tree), or a graphframe archive.
    format : str, optional
        One of :func:`formats`; sniffed when omitted.
    **options
        The format's reader options (archives take only ``progress``,
        which they ignore: they load in one step; traces take the decoder's
        options and ``jobs``).

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> p = GraphFrame.from_lists(("a", "b")).save(os.path.join(tempfile.mkdtemp(), "x.gfz"))
    >>> read_parts(p)["graph"].num_nodes
    2
    """
    what = resolve(path, format, prefer="profile")
    if what.kind == "archive":
        return load_parts(path, **options)
    if what.kind == "trace":
        return trace_parts(path, what.format, **options)
    if what.kind == "ensemble":
        raise wrong_door(what, "read")
    name = what.format
    if name == "hatchet-json" and not options and not isinstance(path, (list, tuple)):
        return read_json_parts(path)
    if isinstance(path, (list, tuple)) and not graphframe_readers.format_info(name).several_files:
        raise ReadError(list_name(path), f"the {name} format reads one file or directory at a "
                        "time, and a list of files was given", expected=ADVICE)
    try:
        raw = graphframe_readers.read(path, format=name, **options)
    except UnknownFormatError as exc:
        raise UnknownFormatError(exc.source, formats(), exc.problem) from exc
    if several_files(path):
        ranks = raw.metrics["rank"].to_numpy() if "rank" in raw.index_levels else None
        check_one_run(path, raw.metadata, ranks)
    # the RawProfile is ours alone: the build releases its columns as it copies them
    return parts_from_raw(raw, consume=True)


def trace_parts(path: Any, format: str, progress: Any = None, jobs: Optional[int] = None,
                **options: Any) -> Dict[str, Any]:
    """The fields of the calling-context tree of the trace at ``path``.

    The tree is built while the events stream through (memory independent of
    the trace length); it is the GraphFrame ``read_trace(path).to_graphframe()``
    gives.
    """
    from graphframe_readers.traces import decode  # on first use: fast start
    from graphframe_readers.traces.tree import CallTreeBuilder

    raw = decode(path, CallTreeBuilder(), format, jobs=jobs, progress=progress, **options)
    return parts_from_raw(raw, consume=True)


def load_parts(path: Any, progress: Any = None, **options: Any) -> Dict[str, Any]:
    """The fields stored in a graphframe archive (``graphframe.load``).

    ``progress`` is accepted like every reader's and ignored. Anything that
    is not a complete archive raises :class:`~graphframe.ReadError` naming
    the file.
    """
    if options:
        raise ArgumentError(f"the {ARCHIVE} format takes no options but progress (ignored); "
                            f"got {', '.join(sorted(map(str, options)))}")
    return archive.read_parts(path)


#: What reads each kind, by the door that was used.
_DOORS = {
    "read": "graphframe.read (one profile or trace -> GraphFrame)",
    "trace": "graphframe.read_trace (one trace -> TraceFrame)",
    "ensemble": "graphframe.Ensemble.read (many profiles -> Ensemble)",
}


def wrong_door(what: Resolved, door: str) -> ReadError:
    """The error for an input that the ``door`` (``"read"`` or ``"trace"``) does not take.

    It says what the input is and names the door that reads it.

    Examples
    --------
    >>> print(wrong_door(Resolved("run.gfe", "ensemble", "graphframe-ensemble"), "read"))
    run.gfe: this is an Ensemble archive (Ensemble.save), several profiles and not one (expected one profile or trace; read it with graphframe.Ensemble.load(path), or graphframe.Ensemble.read(path))
    """
    source = list_name(what.source)
    if what.format == FOLDER:
        problem = (f"this is {what.describe()}, not one profile"
                   + (" or trace" if door == "read" else ""))
        advice = ("read them as an ensemble with graphframe.Ensemble.read(path) (the CLI: "
                  "`graphframe stats --by KEY`, `graphframe plot`, `graphframe info`), or one "
                  "at a time")
    elif what.format == THICKET_JSON:
        problem = "this is a Thicket to_json document, several profiles and not one"
        advice = ("read it with graphframe.Ensemble.read(path), or graphframe.thicket."
                  "Thicket.from_json(text) with the file's text")
    elif what.format == ENSEMBLE_ARCHIVE:
        problem = "this is an Ensemble archive (Ensemble.save), several profiles and not one"
        advice = "read it with graphframe.Ensemble.load(path), or graphframe.Ensemble.read(path)"
    elif door == "trace":
        problem = (f"this is {what.describe()}, not a trace: it holds no events"
                   if what.kind in ("profile", "archive") else f"this is {what.describe()}")
        advice = "read it with graphframe.read(path) (a GraphFrame)"
    else:  # pragma: no cover - read takes every single input
        problem, advice = f"this is {what.describe()}", _DOORS["read"]
    expected = "one trace" if door == "trace" else "one profile or trace"
    return ReadError(source, problem, expected=f"{expected}; {advice}")
