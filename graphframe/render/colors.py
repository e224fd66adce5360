"""ANSI colours for the text tree (Hatchet's palettes)."""

from __future__ import annotations

from typing import Dict, List

from ..errors import ArgumentError

#: Six 256-colour indices per colormap, high values first.
COLORMAPS: Dict[str, List[int]] = {
    "RdYlGn": [196, 208, 220, 46, 34, 22],
    "BrBG": [94, 179, 222, 116, 37, 23],
    "PiYG": [162, 176, 219, 149, 70, 22],
    "PRGn": [90, 140, 183, 151, 70, 22],
    "PuOr": [130, 208, 220, 189, 104, 57],
    "RdBu": [124, 209, 224, 153, 75, 25],
    "RdGy": [124, 209, 223, 251, 244, 238],
    "RdYlBu": [196, 208, 220, 153, 68, 24],
    "Spectral": [196, 208, 220, 191, 114, 26],
}

RESET = "\033[0m"
FAINT = "\033[2m"
UNDERLINE = "\033[4m"
BLUE = "\033[34m"
HIGHLIGHT = "\033[48;5;246m\033[38;5;232m"
LEFT = "\033[38;5;160m"
RIGHT = "\033[38;5;28m"


def palette(name: str, invert: bool = False) -> List[str]:
    """Escape codes of a colormap.

    Examples
    --------
    >>> palette("RdYlGn")[0] == "\\033[38;5;196m"
    True
    >>> palette("nope")
    Traceback (most recent call last):
    ...
    readers.errors.ArgumentError: unknown colormap 'nope'; choose one of BrBG, PRGn, PiYG, PuOr, RdBu, RdGy, RdYlBu, RdYlGn, Spectral
    """
    check_colormap(name)
    codes = [f"\033[38;5;{c}m" for c in COLORMAPS[name]]
    return codes[::-1] if invert else codes


def check_colormap(name: object, what: str = "colormap") -> None:
    """Raise :class:`ArgumentError` unless ``name`` is a known colormap."""
    if not isinstance(name, str) or name not in COLORMAPS:
        raise ArgumentError(f"unknown {what} {name!r}; choose one of "
                            f"{', '.join(sorted(COLORMAPS))}")
