"""ANSI colours for the text trees (Hatchet's palettes, readable on dark terminals).

Hatchet's palettes end in dark colours (``22``, a dark green, has a contrast
of 2.6:1 on a black background). Every colour here is an xterm-256 colour
with a contrast of at least 4.5:1 (WCAG's level for text) against black; the
few of Hatchet's that fell short are replaced by the nearest lighter colour
of the same hue (e.g. ``22`` by ``65``, ``124`` by ``196``). Each line of a
coloured tree closes every colour before its newline.
"""

from __future__ import annotations

from typing import Dict, List

from ..errors import ArgumentError

#: Six 256-colour indices per colormap, high values first.
COLORMAPS: Dict[str, List[int]] = {
    "RdYlGn": [196, 208, 220, 46, 34, 65],
    "BrBG": [136, 179, 222, 116, 37, 30],
    "PiYG": [199, 176, 219, 149, 70, 65],
    "PRGn": [164, 140, 183, 151, 70, 65],
    "PuOr": [166, 208, 220, 189, 104, 63],
    "RdBu": [196, 209, 224, 153, 75, 32],
    "RdGy": [196, 209, 223, 251, 246, 243],
    "RdYlBu": [196, 208, 220, 153, 68, 31],
    "Spectral": [196, 208, 220, 191, 114, 32],
}

RESET = "\033[0m"
FAINT = "\033[2m"
UNDERLINE = "\033[4m"
BLUE = "\033[38;5;33m"
HIGHLIGHT = "\033[48;5;246m\033[38;5;232m"
RED = "\033[38;5;196m"
GREEN = "\033[38;5;29m"
LEFT = RED
RIGHT = GREEN


def palette(name: str, invert: bool = False) -> List[str]:
    """Escape codes of a colormap.

    Examples
    --------
    >>> palette("RdYlGn")[0] == "\\033[38;5;196m"
    True
    >>> palette("nope")
    Traceback (most recent call last):
    ...
    graphframe_readers.errors.ArgumentError: unknown colormap 'nope'; choose one of BrBG, PRGn, PiYG, PuOr, RdBu, RdGy, RdYlBu, RdYlGn, Spectral
    """
    check_colormap(name)
    codes = [f"\033[38;5;{c}m" for c in COLORMAPS[name]]
    return codes[::-1] if invert else codes


def check_colormap(name: object, what: str = "colormap") -> None:
    """Raise :class:`ArgumentError` unless ``name`` is a known colormap."""
    if not isinstance(name, str) or name not in COLORMAPS:
        raise ArgumentError(f"unknown {what} {name!r}; choose one of "
                            f"{', '.join(sorted(COLORMAPS))}")
