"""Profiles from a ``caliperreader.CaliperReader`` that has already read a file.

Hatchet's ``from_caliperreader`` accepts such an object; its records are dicts
of text values (a list where an attribute repeats along a context chain) with
the nested call path under ``path``. They go through the same steps as our
own ``.cali`` decoder (:func:`graphframe_readers.caliper.cali.decode.assemble`), so both give the
same profile for the same file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence

import numpy as np

from ..errors import ReadError
from .assemble import Decoded, PathTree, _convert_texts, assemble
from .cali.meta import (PROP_AGGREGATABLE, PROP_GLOBAL, PROP_HIDDEN, PROP_NESTED,
                               PROP_VALUE)
from .names import CALLPATH_ATTRIBUTE, parse_metadata
from .records import RecordTable

INT = np.int64


@dataclass
class _Attr:
    """The parts of a caliper-reader ``Attribute`` our column rules use."""

    name: str
    type: str
    prop: int
    meta: Dict[str, str] = field(default_factory=dict)

    is_value = property(lambda self: bool(self.prop & PROP_VALUE))
    is_nested = property(lambda self: bool(self.prop & PROP_NESTED))
    is_hidden = property(lambda self: bool(self.prop & PROP_HIDDEN))
    is_global = property(lambda self: bool(self.prop & PROP_GLOBAL))
    is_aggregatable = property(lambda self: bool(self.prop & PROP_AGGREGATABLE))
    numeric = property(lambda self: self.type in ("int", "uint", "double", "addr", "bool"))


def reader_records(reader: Any, *, native: bool = False, string_attributes: Sequence[str] = (),
                   no_path: str = "drop") -> RecordTable:
    """The :class:`RecordTable` of a ``caliperreader.CaliperReader``.

    Parameters
    ----------
    reader : caliperreader.CaliperReader
        A reader that has read its file (``reader.read(path_or_stream)``).
    native : bool
        Name metric columns by Caliper's attribute names, not their aliases.
    string_attributes : sequence of str
        Text attributes to keep as columns.
    no_path : {"keep", "drop"}
        Records without a call path: under a ``<no path>`` root when they hold
        a metric value, or left out.

    Returns
    -------
    RecordTable

    Examples
    --------
    >>> import caliperreader, io
    >>> r = caliperreader.CaliperReader()
    >>> r.read(io.StringIO("__rec=node,id=12,attr=10,data=268,parent=3\\n"
    ...                    "__rec=node,id=13,attr=8,data=region,parent=12\\n"
    ...                    "__rec=node,id=14,attr=10,data=2113,parent=5\\n"
    ...                    "__rec=node,id=15,attr=8,data=sum#time.duration,parent=14\\n"
    ...                    "__rec=node,id=16,attr=13,data=main\\n"
    ...                    "__rec=ctx,ref=16,attr=15,data=1.5\\n"))
    >>> table = reader_records(r)
    >>> list(table.hierarchy.label), [s.name for s, _ in table.columns]
    (['main'], ['time'])
    """
    source = getattr(reader, "filename", None) or "<CaliperReader>"
    records = reader.records
    if not isinstance(records, list):
        raise ReadError(source, "the reader has no records", expected="a CaliperReader after read()")
    attributes = _attributes(reader, records, source)
    callpath = CALLPATH_ATTRIBUTE in attributes
    hier_key = CALLPATH_ATTRIBUTE if callpath else "path"
    # the call path's own attributes (region, function, loop...) are the hierarchy
    attributes = {k: a for k, a in attributes.items() if k != hier_key and not a.is_nested}
    tree = PathTree()
    m = len(records)
    rec_path = np.full(m, -1, dtype=INT)
    texts: Dict[str, List[Any]] = {name: [None] * m for name in attributes}
    slots: Dict[str, np.ndarray] = {name: np.zeros(m, dtype=INT) for name in attributes}
    for i, record in enumerate(records):
        labels = record.get(hier_key)
        if labels is not None and labels != []:
            rec_path[i] = tree.path([labels] if isinstance(labels, str) else labels)
        for j, (key, value) in enumerate(record.items()):
            if key in texts:
                # a repeated context attribute: its innermost value, like Hatchet
                texts[key][i] = value[-1] if isinstance(value, list) else value
                slots[key][i] = j
    values = {}
    for name, column in texts.items():
        values[name] = _convert_texts(source, attributes[name], np.array(column, dtype=object),
                                      lambda i: f"record {i}")
    decoded = Decoded(source, tree, rec_path, attributes, values,
                      {name: not a.is_value for name, a in attributes.items()},
                      lambda key, i: int(slots[key][i]),
                      callpath=callpath, where=lambda i: f"record {i}")
    table = assemble(decoded, native=native, string_attributes=string_attributes,
                     no_path=no_path)
    table.metadata = {**parse_metadata(getattr(reader, "globals", None) or {}),
                      **table.metadata}  # + unattributed
    return table


def _attributes(reader: Any, records: List[dict], source: Any) -> Dict[str, _Attr]:
    names: List[str] = []
    seen = set()
    for record in records:
        for key in record:
            if key not in seen and key != "path":
                seen.add(key)
                names.append(key)
    out: Dict[str, _Attr] = {}
    for name in names:
        try:
            attribute = reader.attribute(name)
            prop = int(getattr(attribute, "prop", 0))
            type_name = attribute.attribute_type()
            alias = attribute.get("attribute.alias")
            unit = attribute.get("attribute.unit")
        except (KeyError, AttributeError, TypeError) as exc:
            raise ReadError(source, f"the reader does not describe attribute {name!r}",
                            expected="a CaliperReader whose records it read itself") from exc
        meta = {"attribute.alias": alias} if alias else {}
        if unit:
            meta["attribute.unit"] = unit
        out[name] = _Attr(name, type_name, prop, meta)
    return out
