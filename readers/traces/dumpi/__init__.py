"""SST DUMPI traces: our own decoder of the binary format, and a writer."""

from .decoder import DumpiDecoder
from ...registry import FormatInfo

DECODER = DumpiDecoder

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".meta",), markers=("*.meta",))

__all__ = ["FORMAT", "DECODER", "DumpiDecoder"]
