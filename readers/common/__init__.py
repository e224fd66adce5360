"""Helpers shared by several format families.

``source`` (a path or an open stream -> bytes, errors naming it), ``jsonfile``
(JSON with located errors and no recursion limit), ``callgraph`` (roots and
first parents of call graphs: DOT, cProfile), ``rowfill`` (one row per node
and process: TAU, timemory).
"""
