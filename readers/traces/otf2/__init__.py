"""OTF2 traces through the optional ``otf2`` package (:class:`Otf2Decoder`)."""

from .decoder import DECODER, Otf2Decoder
from ...registry import FormatInfo

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".otf2",), markers=("*.otf2",))

__all__ = ["FORMAT", "DECODER", "Otf2Decoder"]
