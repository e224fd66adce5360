"""HPCToolkit ``trace.db`` traces (:class:`HpctoolkitTraceDecoder`)."""

from .decoder import DECODER, HpctoolkitTraceDecoder
from ...registry import FormatInfo

#: The format's registry entry: how the resolver recognises it.
FORMAT = FormatInfo.for_decoder(DECODER, suffixes=(), markers=("trace.db",))

__all__ = ["FORMAT", "DECODER", "HpctoolkitTraceDecoder"]
