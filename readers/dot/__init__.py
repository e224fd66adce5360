"""gprof2dot DOT call graphs (``format="gprof-dot"``).

``read_dot(path or stream)`` reads a file, ``parse_dot(text or bytes)``
decodes text already in memory. Modules: ``reader`` (the call-graph model and
the columns), ``labels`` (the label layout of a file), ``scan`` (the
whole-text scan of gprof2dot's one-statement-per-line output) and ``syntax``
(the general DOT parser, the one fallback, with located errors). See
``docs/readers/dot.md``.

Examples
--------
>>> from graphframe_readers.dot import parse_dot
>>> raw = parse_dot('digraph {\\n 1 [label="main\\\\n100.00%\\\\n(40.00%)"];\\n'
...                 ' 1 -> 2 [label="60.00%\\\\n3×"];\\n'
...                 ' 2 [label="work\\\\n60.00%\\\\n(60.00%)\\\\n3×"];\\n}\\n')
>>> raw.node_columns["name"].tolist(), raw.metrics["time"].tolist()
(['main', 'work'], [40.0, 60.0])
"""

from .reader import (NodeLabel, decode_edge_label, decode_node_label, parse_dot, parse_gprof_dot,
                     read_dot)

__all__ = ["NodeLabel", "decode_edge_label", "decode_node_label", "parse_dot", "parse_gprof_dot",
           "read_dot"]
