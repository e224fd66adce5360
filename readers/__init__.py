"""Decoding layer: profile files -> neutral tables (:class:`RawProfile`).

``graphframe_readers`` knows file formats and nothing about GraphFrames; ``graphframe``
builds its model from what these readers return.

The top level is the contract: :func:`read` (any format, sniffed or named),
:func:`sniff`, :func:`formats`, :class:`RawProfile`, :class:`ProfileBuilder` and
the errors. Each format family is a package (``graphframe_readers.hatchet``,
``graphframe_readers.caliper``, ``graphframe_readers.hpctoolkit``, ``graphframe_readers.dot``,
``graphframe_readers.cprofile``, ``graphframe_readers.pyinstrument``, ``graphframe_readers.tau``,
``graphframe_readers.timemory``) with ``read_<format>(path or stream)`` and
``parse_<format>(text or bytes)``; they are imported on first use, so
``import graphframe_readers`` stays cheap. ``graphframe_readers.common`` holds helpers several
families share, ``graphframe_readers.testing`` the conformance checks and the writers of
test inputs.

Examples
--------
>>> import graphframe_readers
>>> "literal" in graphframe_readers.formats()
True
"""

from .builder import ProfileBuilder
from .errors import (ArgumentError, GraphframeError, MissingMembersError, ProfileError, ReadError,
                     UnknownFormatError)
from .profile import RawProfile
from .registry import FormatInfo, format_info, formats, read, sniff

__all__ = [
    "ArgumentError",
    "FormatInfo",
    "GraphframeError",
    "MissingMembersError",
    "ProfileBuilder",
    "ProfileError",
    "RawProfile",
    "ReadError",
    "UnknownFormatError",
    "format_info",
    "formats",
    "read",
    "sniff",
]
