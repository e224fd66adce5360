"""Constructors with Hatchet's names, one per reader (mixed into GraphFrame).

The constructors of each reader family live in :mod:`graphframe.io.constructors`
(one module per family, described there); this module joins them into
``ReaderConstructors``, the one class GraphFrame inherits them from.
"""

from __future__ import annotations

from .constructors.caliper import CaliperConstructors
from .constructors.cprofile import CProfileConstructors
from .constructors.dot import DotConstructors
from .constructors.hpctoolkit import HPCToolkitConstructors
from .constructors.perfflowaspect import PerfFlowAspectConstructors
from .constructors.pyinstrument import PyinstrumentConstructors
from .constructors.raw_profilers import RawProfilerConstructors
from .constructors.tau import TauConstructors
from .constructors.timemory import TimemoryConstructors

__all__ = ["ReaderConstructors"]


# Bases last family first: the API reference lists inherited members from the last
# base on, so this puts them in the order of the families (HPCToolkit ... timemory).
class ReaderConstructors(RawProfilerConstructors,  # issue 33: callgrind, gprof, perf script
                         PerfFlowAspectConstructors, TimemoryConstructors, TauConstructors,
                         PyinstrumentConstructors,
                         CProfileConstructors, DotConstructors, CaliperConstructors,
                         HPCToolkitConstructors):
    """``from_hpctoolkit``, ``from_caliper``, ``from_gprof_dot``... for GraphFrame."""
