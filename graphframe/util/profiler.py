"""Profile a block of Python code with :mod:`cProfile` and read it as a GraphFrame.

:class:`Profiler` is Hatchet's ``hatchet.util.profiler.Profiler``: ``start()``
and ``stop()`` around the code, ``stop()`` writes ``<output>.pstats`` in the
working directory (a time-stamped name when that file exists),
``write_to_file(name)`` writes elsewhere, ``str(profiler)`` is pstats' report.
:meth:`Profiler.graphframe` reads what was profiled as a call tree
(:meth:`graphframe.GraphFrame.from_cprofile`).

Examples
--------
>>> import os, tempfile
>>> from graphframe.util.profiler import Profiler
>>> def work():
...     return sum(i * i for i in range(10000))
>>> here = os.getcwd(); os.chdir(tempfile.mkdtemp())
>>> prf = Profiler()
>>> prf.start(); _ = work(); prf.stop()
>>> os.path.exists(prf._output + ".pstats"), "(work)" in str(prf)
(True, True)
>>> gf = prf.graphframe()
>>> "work" in set(gf.dataframe["name"])
True
>>> os.chdir(here)
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import tempfile
from datetime import datetime
from typing import Any, Sequence

from ..errors import ArgumentError


class Profiler:
    """A :mod:`cProfile` session that writes pstats files (see the module docs).

    ``_prf`` is the :class:`cProfile.Profile` and ``_output`` the file name stem
    ``stop()`` writes to, as in Hatchet.
    """

    def __init__(self, output: str = "graphframe-profile") -> None:
        self._prf = cProfile.Profile()
        self._output = output
        self._active = False

    def start(self) -> None:
        """Start profiling (an error while it already runs)."""
        if self._active:
            raise ArgumentError("the profiler is already running: call stop() first")
        self._active = True
        self._prf.enable()

    def stop(self) -> None:
        """Stop profiling and write ``<output>.pstats`` (see :meth:`write_to_file`)."""
        self._prf.disable()
        self._active = False
        self.write_to_file()

    def reset(self) -> None:
        """Forget what was profiled (an error while it runs)."""
        if self._active:
            raise ArgumentError("the profiler is running: call stop() before reset()")
        self._prf = cProfile.Profile()

    def __str__(self) -> str:
        out = io.StringIO()
        pstats.Stats(self._prf, stream=out).print_stats()
        return out.getvalue()

    def write_to_file(self, filename: str = "", add_pstats_files: Sequence[str] = ()) -> str:
        """Write the statistics (with those of ``add_pstats_files`` added) to ``filename``,
        by default ``<output>.pstats``; an existing file is not overwritten: the name
        gets ``_HHMMSS`` before ``.pstats`` instead. Returns the path written."""
        stats = pstats.Stats(self._prf)
        for extra in add_pstats_files:
            stats.add(extra)
        stem = filename[:-len(".pstats")] if filename.endswith(".pstats") else filename
        path = filename or self._output + ".pstats"
        if os.path.exists(path):
            path = f"{stem or self._output}_{datetime.now():%H%M%S}.pstats"
        stats.dump_stats(path)
        return path

    def graphframe(self) -> Any:
        """What was profiled, as a GraphFrame (a call tree of the Python functions)."""
        from ..graphframe import GraphFrame
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "profile.pstats")
            pstats.Stats(self._prf).dump_stats(path)
            return GraphFrame.from_cprofile(path)
