"""The garbage-collection view of traces read from JVM GC logs (``tf.gc``), GCGC's analyses.

- :class:`~.view.GcView`: ``events``, ``filter``, ``groups``, ``summary``,
  ``percentiles``, ``gcgc_frame``, ``allocation``, ``to_graphframe``;
- :mod:`.summary`: the statistics; :mod:`.nesting`: GC -> phase -> sub-phase;
- :mod:`.tree`: the phase tree as a GraphFrame; :mod:`.gcgc`: GCGC's columns.
"""

from .examples import example_view
from .view import GcView

__all__ = ["example_view", "GcView"]
