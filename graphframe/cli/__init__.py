"""The ``graphframe`` command line (``graphframe tree FILE``, ``diff``, ``convert``...)."""

from .main import build_parser, main, non_negative_int

__all__ = ["build_parser", "main", "non_negative_int"]
