"""Which metrics of a Hatchet literal are exclusive, inclusive and paired.

By default Hatchet's naming rule decides: a key containing ``(inc)`` is
inclusive, every other key exclusive; ``X`` pairs with ``X (inc)`` and
``X (exc)`` with ``X``. When the first root carries a ``"graphframe"`` key
(:data:`DECLARATIONS_KEY`, written by graphframe's ``to_literal`` only when the
rule would get them wrong, or for an ordered graph), it declares them
instead: ``exc_metrics``, ``inc_metrics``, ``inclusive_of``,
``default_metric``; metrics it does not name follow the rule. See
:mod:`graphframe_readers.hatchet.literal`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import ReadError

#: Key of the first root that carries metric declarations (see module docs).
DECLARATIONS_KEY = "graphframe"

#: (exclusive metrics, inclusive metrics, exclusive -> inclusive pairs, default metric)
Kinds = Tuple[List[str], List[str], Dict[str, str], Optional[str]]


def metric_kinds(names: List[str], declared: Any, source: Any) -> Kinds:
    """The kinds of the numeric metrics ``names``: by the declarations the first
    root carries (``declared``, None when it carries none) or by the naming rule.

    Raises
    ------
    ReadError
        At ``[0].graphframe``: the declarations are malformed or name a metric
        no node has.

    Examples
    --------
    >>> metric_kinds(["time", "time (inc)"], None, "<input>")
    (['time'], ['time (inc)'], {'time': 'time (inc)'}, 'time')
    >>> metric_kinds(["a", "b"], {"exc_metrics": [], "inc_metrics": ["a"],
    ...                           "inclusive_of": {"b": "a"}}, "<input>")
    (['b'], ['a'], {'b': 'a'}, None)
    """
    if declared is None:
        return naming_rule(names)
    where = f"[0].{DECLARATIONS_KEY}"
    expected = ("{'exc_metrics': [...], 'inc_metrics': [...], 'inclusive_of': {...}, "
                "'default_metric': ...} naming metrics of the literal")
    try:
        exc = [str(m) for m in declared["exc_metrics"]]
        inc = [str(m) for m in declared["inc_metrics"]]
        pairs = {str(k): str(v) for k, v in dict(declared.get("inclusive_of", {})).items()}
        default = declared.get("default_metric")
    except (TypeError, KeyError, ValueError, AttributeError) as exc_info:
        raise ReadError(source, "the metric declarations are malformed", position=where,
                        expected=expected) from exc_info
    unknown = [m for m in exc + inc + list(pairs) + list(pairs.values()) if m not in names]
    if unknown or (default is not None and default not in names):
        raise ReadError(source, f"the declarations name {unknown[0] if unknown else default!r}, "
                        "which no node has as a metric", position=where, expected=expected)
    rest = [m for m in names if m not in exc and m not in inc]
    auto = naming_rule(rest)
    return exc + auto[0], inc + auto[1], pairs, default


def naming_rule(names: List[str]) -> Kinds:
    """Hatchet's naming rule: ``(inc)`` in the name means inclusive."""
    inc = [m for m in names if "(inc)" in m]
    exc = [m for m in names if "(inc)" not in m]
    pairs = {}
    for m in exc:
        if f"{m} (inc)" in inc:
            pairs[m] = f"{m} (inc)"
        elif m.endswith(" (exc)") and m[: -len(" (exc)")] in inc:
            pairs[m] = m[: -len(" (exc)")]
    default = "time" if "time" in names else (names[0] if names else None)
    return exc, inc, pairs, default


def literal_declarations(metric_names: Sequence[str]) -> Dict[str, Any]:
    """The declarations :func:`parse_literal` derives from metric names alone.

    Examples
    --------
    >>> literal_declarations(["time (inc)", "time", "count"])
    {'exc_metrics': ['time', 'count'], 'inc_metrics': ['time (inc)'], 'inclusive_of': {'time': 'time (inc)'}, 'default_metric': 'time'}
    """
    exc, inc, pairs, default = naming_rule(list(metric_names))
    return {"exc_metrics": exc, "inc_metrics": inc, "inclusive_of": pairs,
            "default_metric": default}
