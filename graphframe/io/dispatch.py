"""The one place that decides what a path is, and reads it into GraphFrame parts.

Every way in goes through :func:`read_parts`: ``graphframe.read``,
``GraphFrame.read``, ``graphframe.load`` (archives only) and every command
of the CLI. A path is, in this order:

* a graphframe archive (``GraphFrame.save``; sniffed by its first bytes,
  whatever its name): the format ``"graphframe"``;
* a JSON document in Hatchet's ``to_json`` layout: read exactly when
  graphframe wrote it (see :mod:`graphframe.io.json.read`);
* anything :mod:`graphframe_readers` recognises (``graphframe_readers.sniff``), decoded into a
  RawProfile and built into the graph and dataframe by
  :func:`graphframe.io.build.parts_from_raw`.

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
from .runs import ADVICE, check_one_run, list_name, several_files

#: The format name of graphframe's own archives (``GraphFrame.save``).
ARCHIVE = "graphframe"


def formats() -> List[str]:
    """Every format :func:`read_parts` understands: the readers', then ``"graphframe"``.

    Examples
    --------
    >>> formats()[-1], "literal" in formats()
    ('graphframe', True)
    """
    return graphframe_readers.formats() + [ARCHIVE]


def sniff(path: Any) -> str:
    """The format of ``path``: ``"graphframe"`` for an archive, else ``graphframe_readers.sniff``'s.

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
    if not isinstance(path, (list, tuple)) and archive.is_archive(path):
        return ARCHIVE
    try:
        return graphframe_readers.sniff(path)
    except UnknownFormatError as exc:
        raise UnknownFormatError(exc.source, formats(), exc.problem) from exc


def read_parts(path: Any, format: Optional[str] = None, **options: Any) -> Dict[str, Any]:
    """The fields of a GraphFrame read from ``path``: ``GraphFrame(**read_parts(path))``.

    Parameters
    ----------
    path : str, path-like or list of them
        A profile file, a database directory, several files of one run, or
        a graphframe archive.
    format : str, optional
        One of :func:`formats`; sniffed when omitted.
    **options
        The format's reader options (archives take only ``progress``,
        which they ignore: they load in one step).

    Examples
    --------
    >>> import os, tempfile
    >>> from graphframe import GraphFrame
    >>> p = GraphFrame.from_lists(("a", "b")).save(os.path.join(tempfile.mkdtemp(), "x.gfz"))
    >>> read_parts(p)["graph"].num_nodes
    2
    """
    name = format if format is not None else sniff(path)
    if name == ARCHIVE:
        return load_parts(path, **options)
    if name == "hatchet-json" and not options and not isinstance(path, (list, tuple)):
        return read_json_parts(path)
    if isinstance(path, (list, tuple)) and name in graphframe_readers.formats() and \
            not graphframe_readers.format_info(name).several_files:
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
