"""Giving freed heap memory back to the operating system during a large build.

glibc's allocator serves requests below its mmap threshold from the heap, and
raises that threshold (up to 32 MiB) each time a mapped block is freed. A large
read makes millions of node-sized temporaries (a million nodes: 4-8 MB arrays)
that land in the heap and are freed between longer-lived ones; the freed pages
stay resident, and the row-sized columns made afterwards (mapped, 60-130 MB
each) cannot reuse them. At a million nodes x 16 ranks that was 150-200 MiB of
the peak of an HPCToolkit read. :func:`release_free_heap` hands those pages
back (``malloc_trim(0)``) just before the row-sized columns are made.

It changes no allocator setting and frees nothing in use. Where the C library
has no ``malloc_trim`` (musl, macOS, Windows) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Callable, Optional


def _find_trim() -> Optional[Callable[[int], int]]:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _find_trim()


def release_free_heap() -> bool:
    """Return the C heap's free pages to the operating system (glibc only).

    Returns True when the C library offers ``malloc_trim`` (the call was
    made), False where there is nothing to call. Nothing in use is touched.

    Examples
    --------
    >>> release_free_heap() in (True, False)
    True
    """
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
