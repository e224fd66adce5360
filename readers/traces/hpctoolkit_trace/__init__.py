"""HPCToolkit ``trace.db`` traces (:class:`HpctoolkitTraceDecoder`)."""

from .decoder import DECODER, HpctoolkitTraceDecoder

__all__ = ["DECODER", "HpctoolkitTraceDecoder"]
