"""Reading HPCToolkit's metric taxonomy (``metrics/default.yaml``) with PyYAML.

``yaml.safe_load`` builds only plain data (dicts, lists, scalars; no Python
objects), so a database cannot make the reader run code. A malformed document
is a :class:`ReadError` at PyYAML's line and column.

Examples
--------
>>> doc = load_yaml("inputs:\\n  - &x\\n    metric: A\\n    scope: function\\n"
...                 "roots:\\n  - name: R\\n    formula: {/: [*x, 2]}\\n    children:\\n"
...                 "      []\\n", "m.yaml")
>>> doc["roots"][0]["formula"]["/"][0]["metric"], doc["roots"][0]["children"]
('A', [])
>>> load_yaml("a: [1, 2\\n", "m.yaml")
Traceback (most recent call last):
...
graphframe_readers.errors.ReadError: m.yaml: line 2, column 1: while parsing a flow sequence, expected ',' or ']', but got '<stream end>' (expected well-formed YAML)
"""

from __future__ import annotations

from typing import Any

import yaml

from ...errors import ReadError


def load_yaml(text: str, source: Any) -> Any:
    """The document in ``text`` as dicts, lists and scalars (``yaml.safe_load``)."""
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        position = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = ", ".join(p for p in (exc.context, exc.problem) if p) or "not valid YAML"
        raise ReadError(source, problem, position=position,
                        expected="well-formed YAML") from exc
    except yaml.YAMLError as exc:
        raise ReadError(source, f"not valid YAML: {exc}", expected="well-formed YAML") from exc
