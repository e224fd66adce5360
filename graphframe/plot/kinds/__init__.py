"""Plot kinds, one module each (``PLOT``, a :class:`~graphframe.plot.registry.PlotKind`).

See :mod:`graphframe.plot.registry`; ``_cli`` holds what the kinds' command-line
drawing shares (one profile or an ensemble, titles, node names).
"""
