"""HPCToolkit databases, both layouts.

* ``read_hpctoolkit(dirname)`` (``format="hpctoolkit"``): the old layout,
  ``experiment.xml`` with ``*.metric-db`` files (hpcprof-mpi), ``*.mdb``
  (hpcprof 2020) or the summary values of the XML alone (package
  ``experiment/``: ``reader``, ``xmltree`` (the XML, streamed through expat),
  ``fastcct`` (its calling-context section decoded with numpy, for files in
  hpcprof's form), ``metricdb``, ``checks``, ``summary``).
* ``read_hpctoolkit_latest(dirname)`` (``format="hpctoolkit-latest"``): the
  current layout, ``meta.db`` + ``profile.db`` (package ``latest/``:
  ``reader``, ``metadb``, ``profiledb``, ``dbfile``, ``kinds``, ``prune``,
  ``derived``, reading YAML through ``yamlfile`` (PyYAML's ``safe_load``)).

``common`` holds what both layouts share (metric names, rank selection, the
final RawProfile assembly). A database is a directory of binary files read
in place (memory maps, ``numpy.fromfile``), so these readers take a
directory and there is no ``parse_*`` over bytes. See
``docs/readers/hpctoolkit.md``.

Examples
--------
>>> import tempfile
>>> from graphframe_readers.hpctoolkit import read_hpctoolkit
>>> from graphframe_readers.testing import write_example_database
>>> raw = read_hpctoolkit(write_example_database(tempfile.mkdtemp()))
>>> raw.index_levels, raw.nodes["name"].tolist()[:2], len(raw.metrics)
(('rank',), ['main', '12:foo'], 10)
"""

from typing import Any

__all__ = ["read_hpctoolkit", "read_hpctoolkit_latest"]


def __getattr__(name: str) -> Any:
    # the readers load with their first use: the trace decoder of ``trace.db`` imports
    # the meta.db decoders of ``latest/`` alone, not both readers (and PyYAML)
    if name == "read_hpctoolkit":
        from .experiment.reader import read_hpctoolkit
        return read_hpctoolkit
    if name == "read_hpctoolkit_latest":
        from .latest.reader import read_hpctoolkit_latest
        return read_hpctoolkit_latest
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
