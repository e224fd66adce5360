"""GraphFrame parts from Hatchet's literal, Hatchet's ``to_json`` documents and graphframe's.

A document that :func:`graphframe.io.json.export.to_dict` wrote carries a
``"graphframe"`` key and is read back exactly
(:mod:`graphframe.io.json.document`); any other document is read with
Hatchet's meaning through :mod:`graphframe_readers.hatchet.json_layout`.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Sequence, Union

from graphframe_readers.hatchet import parse_hatchet_json, parse_literal
from graphframe_readers.common.jsonfile import load_json, loads_json

from ..build import parts_from_raw
from .document import parts_from_doc


def parts_from_json(json_spec: Union[str, Mapping[str, Any]],
                    source: Any = "<json>") -> Dict[str, Any]:
    """GraphFrame fields from JSON text or an already decoded document (a mapping).

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> parts = parts_from_json(GraphFrame.from_lists(("main", "solve")).to_json())
    >>> parts["dataframe"]["time (inc)"].tolist(), parts["graph"].num_nodes
    ([2.0, 1.0], 2)
    """
    doc = json_spec if isinstance(json_spec, Mapping) else loads_json(json_spec, source)
    return parts_from_document(doc, source)


def read_json_parts(path: Any) -> Dict[str, Any]:
    """GraphFrame fields from a JSON file (Hatchet's or graphframe's ``to_json`` layout)."""
    return parts_from_document(load_json(path), path)


def parts_from_document(doc: Any, source: Any) -> Dict[str, Any]:
    """A decoded document: graphframe's own exactly, else with Hatchet's meaning."""
    parts = parts_from_doc(doc, source)
    if parts is None:
        parts = parts_from_raw(parse_hatchet_json(doc, source), private=True)
    return parts


def parts_from_literal(graph_dict: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
    """GraphFrame fields from Hatchet's literal format (see ``GraphFrame.from_literal``).

    Examples
    --------
    >>> parts_from_literal([{"frame": {"name": "a"}, "metrics": {"time": 2.0}}])["exc_metrics"]
    ['time']
    """
    return parts_from_raw(parse_literal(graph_dict, source="<literal>"), private=True)
