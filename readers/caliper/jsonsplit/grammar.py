"""Is a block of json-split ``data`` rows spelled exactly as JSON spells them?

The fast path (:mod:`graphframe_readers.caliper.jsonsplit.fast`) converts the rows
with a C CSV parser, and C float parsers read more than JSON's numbers: ``+1``,
``.5``, ``1.``, ``01`` and, once pyarrow's path has deleted the whitespace,
``1 5`` (as 15). Before a block is parsed, :func:`is_json_rows` checks it
against JSON's grammar (RFC 8259) for a list of rows of numbers and ``null``::

    rows   = row *(ws "," ws row)
    row    = "[" ws value ws *("," ws value ws) "]"
    value  = number / "null"
    number = ["-"] ("0" / [1-9] *DIGIT) ["." 1*DIGIT] [("e" / "E") ["+" / "-"] 1*DIGIT]
    ws     = *(" " / TAB / LF / CR)

A block that does not match goes to the general decoder, which reads every
valid document (text cells, ``NaN``, nested lists) and locates every error.

The check is a regular expression run by RE2 (``pyarrow.compute``, already
loaded with pandas): linear time, about 1.5 ns a byte, on the file's bytes
without a copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_WS = r"[ \t\n\r]*"
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_VALUE = rf"(?:{_NUMBER}|null)"
_ROW = rf"\[{_WS}{_VALUE}{_WS}(?:,{_WS}{_VALUE}{_WS})*\]"
#: The whole block: rows separated by commas (``\A``/``\z``: RE2's whole-text anchors).
ROWS = rf"\A{_ROW}(?:{_WS},{_WS}{_ROW})*\z"


def is_json_rows(buf: Any) -> bool:
    """True when ``buf`` (bytes, or a uint8 array viewing them) is one or more rows
    of JSON numbers and nulls separated by commas, with JSON whitespace only.

    False also when RE2 is not available (a pyarrow built without it): the caller
    then takes the general decoder.

    Examples
    --------
    >>> is_json_rows(b"[1, -2.5e-3, null],\\r\\n\\t[0, 10, 0.5]")
    True
    >>> [is_json_rows(b"[%s]" % cell) for cell in (b"+1", b".5", b"1.", b"01", b"1 5", b"-")]
    [False, False, False, False, False, False]
    >>> is_json_rows(b"[1,\\x0c2]"), is_json_rows(b"[1, 2],, [3, 4]"), is_json_rows(b"[]")
    (False, False, False)
    """
    size = len(buf)
    if not size:
        return False
    offsets = pa.py_buffer(np.array([0, size], dtype=np.int64))
    # large_binary: a block holds at least one whole row, which may pass 2 GiB
    text = pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(buf)])
    try:
        return bool(pc.match_substring_regex(text, ROWS)[0].as_py())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        return False
