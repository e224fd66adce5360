"""Hatchet's own formats: the literal (nested dicts) and the ``to_json`` layout.

``read_x(path or stream)`` reads a file; ``parse_x(text, bytes or loaded
document)`` decodes what is already in memory.

Examples
--------
>>> from graphframe_readers.hatchet import parse_literal
>>> raw = parse_literal('[{"frame": {"name": "main"}, "metrics": {"time": 2.0}}]')
>>> raw.nodes["name"].tolist(), raw.metrics["time"].tolist()
(['main'], [2.0])
"""

from .json_layout import parse_hatchet_json, read_hatchet_json
from .literal import (DECLARATIONS_KEY, LiteralWarning, literal_declarations, parse_literal,
                      read_literal)

__all__ = ["DECLARATIONS_KEY", "LiteralWarning", "literal_declarations", "parse_hatchet_json",
           "parse_literal", "read_hatchet_json", "read_literal"]
