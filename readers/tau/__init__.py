"""TAU profile directories (``format="tau"``).

``read_tau(directory or file)`` reads ``profile.<node>.<context>.<thread>``
files (or ``MULTI__<METRIC>`` sub-directories); ``parse_tau(text or mapping
of file names to texts)`` decodes them from memory. ``text`` decodes one
file's layout, ``reader`` combines files into one profile. See
``docs/readers/tau.md``.

Examples
--------
>>> from graphframe_readers.tau import parse_tau
>>> raw = parse_tau('1 templated_functions_MULTI_TIME\\n'
...                 '# Name Calls Subrs Excl Incl ProfileCalls #\\n'
...                 '"main" 1 0 5 5 0 GROUP="TAU_DEFAULT"\\n0 aggregates\\n')
>>> raw.nodes["name"].tolist(), raw.metrics[["time", "time (inc)"]].values.tolist()
(['main'], [[5.0, 5.0]])
"""

from .reader import build_tau, parse_tau, read_tau

__all__ = ["build_tau", "parse_tau", "read_tau"]
