"""Charm++ Projections logs (:class:`ProjectionsDecoder`)."""

from .decoder import DECODER, ProjectionsDecoder

__all__ = ["DECODER", "ProjectionsDecoder"]
