"""Caliper: ``.cali`` files (``format="caliper"``) and json-split (``format="caliper-json"``).

* ``read_caliper(path or stream)`` reads ``.cali`` data: a file, a directory
  or list of per-rank files (one profile with a ``rank`` level), an open
  stream, or a ``caliperreader.CaliperReader``; ``parse_caliper(text or
  bytes)`` decodes content already in memory.
* ``read_caliper_json(path or stream)`` / ``parse_caliper_json(text, bytes or
  dict)`` read json-split.
* ``read_caliper_any`` is Hatchet's ``from_caliper``: either layout,
  ``.cali`` through ``cali-query`` when a query is given.

Layout of the package: ``cali/`` decodes the ``.cali`` text (``text``,
``lines``, ``meta``, ``decode``), ``jsonsplit/`` decodes json-split
(``reader``, ``fast``, ``cells``, ``sniff``), ``pyreader`` reads
caliper-reader objects; both layouts end in the shared ``records`` table
(``names`` and ``averages`` decide column names, kinds and merge rules,
``assemble`` builds the table from decoded records, ``ranks`` merges per-rank
files). See ``docs/readers/caliper.md``.

Examples
--------
>>> import json
>>> from graphframe_readers.caliper import parse_caliper_json
>>> doc = {"data": [[0, 2.0]], "columns": ["path", "sum#time.duration"],
...        "column_metadata": [{"is_value": False}, {"is_value": True}],
...        "nodes": [{"label": "main", "column": "path"}]}
>>> parse_caliper_json(json.dumps(doc)).metrics["time"].tolist()
[2.0]
"""

from .averages import UnweightedAverageWarning
from .jsonsplit.reader import parse_caliper_json, read_caliper_json
from .reader import (cali_files, parse_caliper, read_caliper, read_caliper_any,
                     run_cali_query)

__all__ = ["UnweightedAverageWarning", "cali_files", "parse_caliper", "parse_caliper_json",
           "read_caliper", "read_caliper_any", "read_caliper_json", "run_cali_query"]
