"""Frame: the identity of a call-path element (an attribute mapping with value semantics)."""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

#: Value Hatchet gives ``type`` when a frame does not name one.
DEFAULT_TYPE = "None"


def is_missing(value: Any) -> bool:
    """True for None, NaN and pandas' NA (an absent attribute).

    Examples
    --------
    >>> is_missing(None), is_missing(float("nan")), is_missing("x"), is_missing([1])
    (True, True, False, False)
    """
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # list-likes: never "missing"
        return False


def python_scalar(value: Any) -> Any:
    """Turn numpy scalars into the equivalent Python scalar."""
    if isinstance(value, np.generic):
        return value.item()
    return value


class Frame(Mapping):
    """Mapping of node attributes with value semantics.

    Equality, hashing and ordering use the sorted ``(key, value)`` pairs, as in
    Hatchet. A frame without a ``type`` gets the string ``"None"``, so
    ``Frame(name="a") == Frame(name="a", type="None")``. As in Hatchet,
    :attr:`attrs` is the frame's own dict (it may be changed) and the sorted
    pairs are taken once, when first used: a change made after that does not
    move the frame in comparisons. A frame read from a graph (``node.frame``)
    is a new object: changing it does not change the graph.

    Parameters
    ----------
    attrs : mapping, optional
        Attributes; copied, never kept by reference.
    **kwargs
        More attributes (they override ``attrs``).

    Examples
    --------
    >>> f = Frame({"name": "main"}, line=3)
    >>> f["name"], f.get("file", "?")
    ('main', '?')
    >>> str(f)
    "{'line': '3', 'name': 'main', 'type': 'None'}"
    >>> Frame(name="a") < Frame(name="b")
    True
    """

    __slots__ = ("_attrs", "_key", "_hash")

    def __init__(self, attrs: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        data = {k: python_scalar(v) for k, v in dict(attrs or {}, **kwargs).items()}
        if not data:
            raise ValueError("Frame must be constructed with at least one attribute")
        data.setdefault("type", DEFAULT_TYPE)
        self._attrs = data
        self._key: Optional[Tuple[Tuple[str, Any], ...]] = None
        self._hash: Optional[int] = None

    # mapping protocol --------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        return self._attrs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    @property
    def attrs(self) -> dict:
        """The attributes (the frame's own dict, as in Hatchet).

        Examples
        --------
        >>> f = Frame(name="a")
        >>> f.attrs["name"] = "b"
        >>> f["name"]
        'b'
        """
        return self._attrs

    @property
    def tuple_repr(self) -> Tuple[Tuple[str, Any], ...]:
        """The canonical form: sorted ``(key, value)`` pairs (taken when first used)."""
        if self._key is None:
            self._key = tuple(sorted(self._attrs.items()))
        return self._key

    def values(self, names: Union[None, str, Sequence[str]] = None):  # type: ignore[override]
        """Attribute values: all of them, a tuple for a list of names, or one."""
        if names is None:
            return self._attrs.values()
        if isinstance(names, (list, tuple)):
            return tuple(self._attrs.get(n) for n in names)
        return self._attrs.get(names)

    def copy(self) -> "Frame":
        """A new, equal Frame."""
        return Frame(self._attrs)

    # value semantics -----------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return self.tuple_repr == other.tuple_repr

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __lt__(self, other: "Frame") -> bool:
        return self.tuple_repr < other.tuple_repr

    def __le__(self, other: "Frame") -> bool:
        return self.tuple_repr <= other.tuple_repr

    def __gt__(self, other: "Frame") -> bool:
        return self.tuple_repr > other.tuple_repr

    def __ge__(self, other: "Frame") -> bool:
        return self.tuple_repr >= other.tuple_repr

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.tuple_repr)
        return self._hash

    def __str__(self) -> str:
        return "{" + ", ".join(f"'{k}': '{v}'" for k, v in sorted(self._attrs.items())) + "}"

    def __repr__(self) -> str:
        return f"Frame({self})"
