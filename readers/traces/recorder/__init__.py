"""Recorder 2.2 I/O traces (:class:`RecorderDecoder`)."""

from .decoder import DECODER, RecorderDecoder

__all__ = ["DECODER", "RecorderDecoder"]
