"""Decoding layer: profile files -> neutral tables (:class:`RawProfile`).

``readers`` knows file formats and nothing about GraphFrames; ``graphframe``
builds its model from what these readers return.

Examples
--------
>>> import readers
>>> "literal" in readers.formats()
True
"""

from .builder import ProfileBuilder
from .errors import ArgumentError, GraphframeError, ProfileError, ReadError, UnknownFormatError
from .profile import RawProfile
from .registry import FormatInfo, format_info, formats, read, sniff

__all__ = [
    "ArgumentError",
    "FormatInfo",
    "GraphframeError",
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
