"""OTF2 traces through the optional ``otf2`` package (:class:`Otf2Decoder`)."""

from .decoder import DECODER, Otf2Decoder

__all__ = ["DECODER", "Otf2Decoder"]
