"""Chrome / Perfetto trace-event JSON: streaming decoder and writer."""

from .decoder import ChromeDecoder

DECODER = ChromeDecoder

__all__ = ["ChromeDecoder", "DECODER"]
