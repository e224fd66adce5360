"""Recorder 2.2 I/O traces (:class:`RecorderDecoder`)."""

from .decoder import DECODER, RecorderDecoder
from ...registry import FormatInfo

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".mt", ".itf"), markers=("recorder.mt",))

__all__ = ["FORMAT", "DECODER", "RecorderDecoder"]
