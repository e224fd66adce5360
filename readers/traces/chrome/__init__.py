"""Chrome / Perfetto trace-event JSON: streaming decoder and writer."""

from .decoder import ChromeDecoder
from ...registry import FormatInfo

DECODER = ChromeDecoder

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(".json",), markers=())

__all__ = ["FORMAT", "ChromeDecoder", "DECODER"]
