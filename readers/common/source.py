"""Where a reader's bytes come from: a path or an open stream.

Every single-file reader takes either a path or an open text/binary stream
(``read_x(path_or_stream)``) and hands the contents to its pure
``parse_x(data)``; :func:`read_source` is that I/O step, with errors that name
the file or the stream.
"""

from __future__ import annotations

import os
from typing import Any, Tuple, Union

from ..errors import ReadError


def is_stream(path: Any) -> bool:
    """True for an open file-like object (anything with ``read``).

    Examples
    --------
    >>> import io
    >>> is_stream(io.BytesIO(b"x")), is_stream("profile.json")
    (True, False)
    """
    return hasattr(path, "read")


def source_name(path: Any) -> Any:
    """The name errors use for ``path``: a stream's ``name``, else ``<stream>``;
    a path as it is.

    Examples
    --------
    >>> import io
    >>> source_name(io.StringIO("{}")), source_name("p.json")
    ('<stream>', 'p.json')
    """
    if is_stream(path):
        name = getattr(path, "name", None)
        return name if isinstance(name, str) else "<stream>"
    return path


def read_source(path: Any) -> Tuple[Union[bytes, str], Any]:
    """The contents of a file or an open stream, and the name to report it by
    (a stream's ``name``, else ``<stream>``).

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or a stream whose ``read()`` returns ``bytes`` or ``str``.

    Returns
    -------
    (bytes or str, source)
        ``bytes`` for files; whatever the stream returns for streams.

    Examples
    --------
    >>> import io
    >>> read_source(io.BytesIO(b"[]"))
    (b'[]', '<stream>')
    >>> read_source("/no/such/file")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: /no/such/file: cannot read the file: No such file or directory
    """
    if is_stream(path):
        source = source_name(path)
        try:
            data = path.read()
        except (OSError, ValueError) as exc:
            raise ReadError(source, f"cannot read the stream: {exc}") from exc
        if not isinstance(data, (bytes, str)):
            raise ReadError(source, f"the stream's read() returned {type(data).__name__}",
                            expected="a text or binary stream")
        return data, source
    try:
        source = os.fspath(path)
    except TypeError as exc:
        raise ReadError(repr(path)[:80], f"a value of type {type(path).__name__} is not a "
                        "file path", expected="a path or an open stream") from exc
    try:
        with open(source, "rb") as fh:
            return fh.read(), source
    except OSError as exc:
        raise ReadError(source, f"cannot read the file: {exc.strerror}") from exc


def decode_text(data: Union[bytes, str], source: Any, expected: str) -> str:
    """``data`` as text: UTF-8 (a byte-order mark is dropped); not UTF-8 is a
    :class:`ReadError` at the first bad byte.

    Examples
    --------
    >>> decode_text(b"\\xef\\xbb\\xbf{}", "p.json", "JSON")
    '{}'
    >>> decode_text(b"{\\xff}", "p.json", "a UTF-8 encoded JSON document")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ReadError: p.json: byte 1: the file is not UTF-8 text (expected a UTF-8 encoded JSON document)
    """
    if isinstance(data, str):
        return data[1:] if data[:1] == "\ufeff" else data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(source, "the file is not UTF-8 text", position=f"byte {exc.start}",
                        expected=expected) from exc
