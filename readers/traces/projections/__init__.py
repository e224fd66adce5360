"""Charm++ Projections logs (:class:`ProjectionsDecoder`)."""

from .decoder import DECODER, ProjectionsDecoder
from ...registry import FormatInfo

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".sts",), markers=("*.sts",))

__all__ = ["FORMAT", "DECODER", "ProjectionsDecoder"]
