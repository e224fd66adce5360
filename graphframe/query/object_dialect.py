"""The object dialect: a query as a Python list.

Elements of the list (Hatchet's forms, plus callables):

* a quantifier alone: ``"."`` (one node), ``"*"`` (zero or more), ``"+"``
  (one or more), an integer ``k >= 1`` (exactly k nodes) - any node matches;
* a dict of conditions (quantifier ``"."``);
* a tuple ``(quantifier, dict)`` or ``(quantifier, callable)``;
* a callable on a node's row (quantifier ``"."``).

A dict holds conditions that must all hold. ``{"name": "MPI_.*"}``: a string
column's value must match the regex *completely*; ``{"time": 5}``: a numeric
column equals the number; ``{"time (inc)": ">= 2"}``: a comparison string (an
operator and a number, parsed, never evaluated); a list value means "all of
these"; ``"depth"`` and ``"node_id"`` are node properties (``{"depth": -1}``
means "is a leaf"). A key that is not a column is an ``InvalidQueryFilter`` naming it
(Hatchet: the condition is false, which makes a misspelt key empty the result).
"""

from __future__ import annotations

from numbers import Real
from typing import Any, List, Mapping, Optional, Tuple

from .. import options
from .atoms import Atom
from .columns import bad_condition, compile_regex
from .comparison import is_comparison, parse_comparison
from .errors import InvalidQueryFilter, InvalidQueryPath, QuerySyntaxError, with_context
from .predicates import CallablePredicate, Predicate, true_predicate

Step = Tuple[str, Any]      # ("." or "*", predicate)


def expand(quantifier: Any, predicate: Any) -> List[Step]:
    """Steps for one query node: ``"+"`` -> ``"."`` then ``"*"``; ``k`` -> k x ``"."``.

    Examples
    --------
    >>> [q for q, _ in expand("+", None)], [q for q, _ in expand(3, None)]
    (['.', '*'], ['.', '.', '.'])
    """
    if isinstance(quantifier, bool) or not isinstance(quantifier, (str, int)):
        raise InvalidQueryPath(
            f"a quantifier is '.', '*', '+' or a positive integer, not {quantifier!r}")
    if isinstance(quantifier, int):
        if quantifier < 1:
            raise InvalidQueryPath(f"a count quantifier must be at least 1, not {quantifier}")
        return [(".", predicate)] * quantifier
    if quantifier == "+":
        return [(".", predicate), ("*", predicate)]
    if quantifier in (".", "*"):
        return [(quantifier, predicate)]
    raise InvalidQueryPath(
        f"a quantifier is '.', '*', '+' or a positive integer, not {quantifier!r}")


def as_predicate(spec: Any, multi_index_mode: str, label: Optional[str] = None) -> Any:
    """A predicate from a dict of conditions, a callable, a compiled predicate or None.

    ``label`` (where the predicate comes from, for error messages) is given
    to new predicates; a compiled predicate is returned unchanged.

    Examples
    --------
    >>> as_predicate({"name": "a"}, "off"), as_predicate(None, "off")
    (Predicate(Atom(column name object 'a')), Predicate(True))
    """
    if spec is None:
        return true_predicate(multi_index_mode)
    if isinstance(spec, (Predicate, CallablePredicate)):
        return spec
    if isinstance(spec, Mapping):
        return dict_predicate(spec, multi_index_mode, label)
    if callable(spec):
        return CallablePredicate(spec, multi_index_mode, label)
    raise InvalidQueryPath(
        f"a query node's predicate is a dict of conditions or a callable, not {spec!r}")


def compile_object_query(query: Any, multi_index_mode: str = "off") -> List[Step]:
    """The steps of an object-dialect query.

    Examples
    --------
    >>> steps = compile_object_query([{"name": "a"}, "*", ("+", {"time": ">= 2"})])
    >>> [q for q, _ in steps]
    ['.', '*', '.', '*']
    >>> steps[0][1]
    Predicate(Atom(column name object 'a'))
    """
    if not isinstance(query, list):
        raise InvalidQueryPath(
            f"an object-dialect query is a list of query nodes, not a {type(query).__name__}")
    steps: List[Step] = []
    for position, element in enumerate(query):
        label = f"query node {position} {describe(element)}"
        try:
            steps.extend(_element_steps(element, multi_index_mode, label))
        except (InvalidQueryPath, InvalidQueryFilter) as exc:
            raise with_context(exc, f"query node {position}") from exc
    if not steps:
        raise InvalidQueryPath("the query has no query nodes")
    return steps


def describe(element: Any, limit: int = 60) -> str:
    """A short text for a query node in error messages.

    Examples
    --------
    >>> describe({"time (inc)": ">= two"}), describe(len), describe(("*", lambda r: True))
    ("{'time (inc)': '>= two'}", 'len', "('*', <lambda>)")
    """
    if isinstance(element, tuple):
        text = "(" + ", ".join(describe(e, limit) for e in element) + ")"
    elif callable(element) and not isinstance(element, Mapping):
        text = getattr(element, "__name__", None) or type(element).__name__
    else:
        text = repr(element)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _element_steps(element: Any, mode: str, label: str) -> List[Step]:
    if isinstance(element, (str, int)) and not isinstance(element, bool):
        return expand(element, true_predicate(mode))
    if isinstance(element, Mapping):
        return expand(".", dict_predicate(element, mode, label))
    if isinstance(element, tuple):
        if len(element) != 2:
            raise InvalidQueryPath(
                f"a tuple query node is (quantifier, predicate), not {len(element)} items")
        quantifier, spec = element
        if isinstance(quantifier, bool) or not isinstance(quantifier, (str, int)):
            raise InvalidQueryPath(
                "the first value of a tuple query node must be a quantifier string or an "
                f"integer, not {quantifier!r}")
        if not isinstance(spec, Mapping) and not callable(spec):
            raise InvalidQueryPath(
                f"the second value of a tuple query node is a dict or a callable, not {spec!r}")
        return expand(quantifier, as_predicate(spec, mode, label))
    if callable(element):
        return expand(".", CallablePredicate(element, mode, label))
    raise InvalidQueryPath(
        "a query node is a quantifier ('.', '*', '+', int), a dict, a (quantifier, dict) "
        f"tuple or a callable, not {element!r}")


def dict_predicate(conditions: Mapping[Any, Any], multi_index_mode: str = "off",
                   label: Optional[str] = None) -> Predicate:
    """A predicate from an object-dialect dict (all conditions must hold).

    A string value that can be neither a regex (for a string column) nor a
    comparison (for a numeric column) is refused here, before any data is
    seen: a bad regex is an :class:`InvalidQueryFilter`, a bad comparison a
    :class:`QuerySyntaxError`.

    Examples
    --------
    >>> dict_predicate({"depth": -1, "time (inc)": [">= 2", "< 10"]})
    Predicate(Atom(leaf) AND Atom(column time (inc) object '>= 2') AND Atom(column time (inc) object '< 10'))
    """
    literals = []
    for key, value in conditions.items():
        if isinstance(key, (tuple, list)) and len(key) == 1:
            key = key[0]
        values = value if isinstance(value, (list, tuple)) else [value]
        for single in values:
            literals.append((_atom(key, single), False))
    return Predicate([literals], multi_index_mode, label)


def _atom(key: Any, value: Any) -> Atom:
    if isinstance(key, str) and key in ("depth", "node_id"):
        if isinstance(value, str):
            op, number = parse_comparison(value)
            return Atom(key, op, None, number)
        if isinstance(value, Real) and not isinstance(value, bool):
            if key == "depth" and value == -1:
                return Atom("leaf")
            return Atom(key, "==", None, value)
        raise InvalidQueryFilter(
            f"{key!r} is a number: filter it with a number or a comparison string such as "
            f"'>= 2', not {value!r}")
    if isinstance(value, str):
        _check_pattern(key, value)
        return Atom("column", "object", key, value)
    if isinstance(value, Real) or options.hatchet_compat:
        # under graphframe.options.hatchet_compat another value is refused when the query
        # is applied, as Hatchet does (columns._object_rule); otherwise here, before any data
        return Atom("column", "object", key, value)
    raise bad_condition(key, value)



def _check_pattern(key: Any, value: str) -> None:
    """Refuse a string that is neither a valid regex nor (if it looks like one) a comparison."""
    try:
        compile_regex(value)
    except InvalidQueryFilter as exc:
        if not is_comparison(value):
            raise InvalidQueryFilter(f"column {key!r}: {exc}") from exc
        try:
            parse_comparison(value)
        except QuerySyntaxError as bad:
            raise with_context(bad, f"column {key!r}") from bad
