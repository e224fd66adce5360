"""SST DUMPI traces: our own decoder of the binary format, and a writer."""

from .decoder import DumpiDecoder

DECODER = DumpiDecoder

__all__ = ["DECODER", "DumpiDecoder"]
