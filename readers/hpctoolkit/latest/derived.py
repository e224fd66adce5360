"""Derived metrics of the current HPCToolkit layout: the formulas of ``metrics/default.yaml``.

``hpcprof`` writes a metric taxonomy next to ``meta.db``; besides the measured
metrics it defines *derived* ones (``GKER:OCC_THR``, theoretical GPU
occupancy, is ``100 * FGP_ACT / FGP_MAX``), which hpcviewer computes on
display. Their inputs are summary statistics of propagation scopes
(``function``, ``lex_aware``, ``execution``), most of which are not columns
of the GraphFrame (it holds ``execution`` as ``X (inc)`` and each node's own
cost as ``X``), so the formulas are not evaluated: they are read and put in
``metadata["derived_metrics"]``, one readable expression per form, where
``X[scope]`` names metric ``X`` summed over ``scope``.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Tuple

from ...errors import ReadError
from .yamlfile import load_yaml

NOTE = ("formulas of hpcviewer's derived metrics (metrics/default.yaml), not evaluated: "
        "X[scope] is metric X summed over a propagation scope; 'execution' is the column "
        "'X (inc)', the 'function' and 'lex_aware' scopes are not columns")
OPERATORS = ("+", "-", "*", "/", "^")


def derived_metrics(directory: Path, meta: Any = None) -> Dict[str, Any]:
    """``{"derived_metrics": {...}}`` (plus ``derived_metrics_note``) for ``metadata``.

    Each derived metric maps to its description and its formulas, keyed by
    kind (``inclusive``/``exclusive``), variant and form (``custom`` is what
    hpcviewer shows, ``standard`` the form built on standard scopes only).
    A ``default.yaml`` that cannot be read gives a warning and
    ``derived_metrics_error``; the profile is read all the same.

    Examples
    --------
    >>> import os, tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> os.mkdir(d / "metrics")
    >>> _ = (d / "metrics" / "default.yaml").write_text(
    ...     "inputs:\\n  - &a\\n    metric: A\\n    scope: lex_aware\\n    formula: $$\\n"
    ...     "    combine: sum\\n  - &b\\n    metric: B\\n    scope: lex_aware\\n"
    ...     "roots:\\n  - name: R\\n    variants:\\n      \\"\\":\\n        formula:\\n"
    ...     "          exclusive:\\n            custom: {\\"*\\": [100, {/: [*a, *b]}]}\\n")
    >>> derived_metrics(d)["derived_metrics"]
    {'R': {'description': None, 'formulas': {'exclusive (custom)': '100 * (A[lex_aware] / B[lex_aware])'}}}
    """
    doc, problems = load_taxonomy(directory)
    return derived_from(doc, problems)


def load_taxonomy(directory: Path) -> Tuple[Any, Dict[str, Any]]:
    """``metrics/default.yaml`` of the database as plain data (None when absent or
    unreadable) and, when it cannot be read, ``{"derived_metrics_error": ...}`` (with a
    warning: the profile is read all the same)."""
    path = Path(directory) / "metrics" / "default.yaml"
    if not path.is_file():
        return None, {}
    try:
        return load_yaml(path.read_text(encoding="utf-8", errors="replace"), path), {}
    except ReadError as exc:
        warnings.warn(f"derived metric formulas not read: {exc}", stacklevel=4)
        return None, {"derived_metrics_error": str(exc)}


def derived_from(doc: Any, problems: Mapping[str, Any]) -> Dict[str, Any]:
    """:func:`derived_metrics` of a taxonomy loaded by :func:`load_taxonomy`."""
    out: Dict[str, Any] = {}
    for metric in _walk(doc.get("roots") if isinstance(doc, dict) else None):
        formulas = _formulas(metric)
        if formulas:
            out[str(metric.get("name"))] = {"description": metric.get("description"),
                                            "formulas": formulas}
    if out:
        return {"derived_metrics": out, "derived_metrics_note": NOTE}
    return {"derived_metrics": {}, **problems}


def viewer_order(doc: Any) -> List[str]:
    """Names of the metrics hpcviewer shows, in its column order: the taxonomy's
    ``roots`` and their ``children`` depth first, without groups hidden from display
    (``render: hidden``) and metrics not ``visible by default``.

    Examples
    --------
    >>> viewer_order({"roots": [{"name": "Uncategorized", "variants": {"Sum": {
    ...     "render": "hidden"}}, "children": [{"name": "cycles"}, {"name": "instructions",
    ...     "visible by default": False}]}, {"name": "GINS"}]})
    ['cycles', 'GINS']
    """
    names = []
    for metric in _walk(doc.get("roots") if isinstance(doc, dict) else None):
        if metric.get("visible by default", True) is False or _hidden(metric):
            continue
        if metric.get("name") is not None:
            names.append(str(metric["name"]))
    return names


def _hidden(metric: Dict[str, Any]) -> bool:
    variants = metric.get("variants")
    renders = [v.get("render") for v in variants.values() if isinstance(v, dict)] \
        if isinstance(variants, dict) else []
    return bool(renders) and all(r == "hidden" for r in renders)


def _walk(metrics: Any) -> Iterator[Dict[str, Any]]:
    stack = list(reversed(metrics)) if isinstance(metrics, list) else []
    while stack:  # roots and their children, depth first, in file order
        metric = stack.pop()
        if isinstance(metric, dict):
            yield metric
            children = metric.get("children")
            if isinstance(children, list):
                stack.extend(reversed(children))


def _formulas(metric: Dict[str, Any]) -> Dict[str, str]:
    out: Dict[str, str] = {}
    variants = metric.get("variants")
    for variant, spec in (variants.items() if isinstance(variants, dict) else ()):
        formula = spec.get("formula") if isinstance(spec, dict) else None
        if not isinstance(formula, dict):  # "sum"/"first": aggregates of the children
            continue
        for kind in ("inclusive", "exclusive"):
            value = formula.get(kind)
            forms = value if isinstance(value, dict) and value and \
                set(value) <= {"custom", "standard"} else {"standard": value}
            for form, expr in forms.items():
                if expr is None or _is_input(expr):
                    continue  # a measured metric, not a derived one
                label = f"{variant} {kind}" if variant else kind
                out[f"{label} ({form})"] = render(expr)
    return out


def _is_input(expr: Any) -> bool:
    return isinstance(expr, dict) and "metric" in expr


def render(expr: Any) -> str:
    """A formula of the taxonomy as infix text (outer parentheses dropped).

    Examples
    --------
    >>> render({"+": [1, {"/": [{"metric": "U", "scope": "function"}, 2]}]})
    '1 + (U[function] / 2)'
    >>> render({"max": [{"metric": "T", "scope": "execution", "combine": "min"}, 0]})
    'max(min(T[execution]), 0)'
    """
    text = _render(expr)
    if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        return text[1:-1]
    return text


def _render(expr: Any) -> str:
    if _is_input(expr):
        term = f"{expr['metric']}[{expr.get('scope', '?')}]"
        formula = expr.get("formula", "$$")
        if formula not in (None, "$$"):
            term = "(" + str(formula).replace("$$", term) + ")"
        combine = expr.get("combine", "sum")
        return term if combine in (None, "sum") else f"{combine}({term})"
    if isinstance(expr, list):  # a parenthesised sequence of tokens
        return "(" + " ".join(_render(e) for e in expr) + ")"
    if isinstance(expr, dict) and len(expr) == 1:
        (op, args), = expr.items()
        args = args if isinstance(args, list) else [args]
        if op in OPERATORS:
            return "(" + f" {op} ".join(_render(a) for a in args) + ")"
        return f"{op}(" + ", ".join(render(a) for a in args) + ")"
    return str(expr)


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0
