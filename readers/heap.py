"""Giving freed heap memory back to the operating system during a large read or build.

glibc's allocator serves requests below its mmap threshold from the heap, and
raises that threshold (up to 32 MiB) each time a mapped block is freed. A large
read makes millions of node-sized temporaries (a million nodes: 4-8 MB arrays)
that land in the heap and are freed between longer-lived ones; the freed pages
stay resident, and the row-sized columns made afterwards (mapped, 60-130 MB
each) cannot reuse them. At a million nodes x 16 ranks that was 150-200 MiB of
the peak of an HPCToolkit read. :func:`release_free_heap` hands those pages
back (``malloc_trim(0)``) just before the row-sized columns are made. The
HPCToolkit reader's fast route does the same after the XML, whose numpy
temporaries (several hundred MB at a million nodes) would otherwise stay
resident through the rest of the read. It lives here, below ``graphframe``,
so that readers and the GraphFrame build share it.

A small build is left alone (:data:`TRIM_MIN_NODES`): its temporaries hold a
few MB at most, and a trim costs more than it gives back, since the pages it
returns are faulted in again by the next allocations (at 10,000 nodes x 16
ranks the trims of an HPCToolkit read made it 10-15 % slower).

It changes no allocator setting and frees nothing in use. Where the C library
has no ``malloc_trim`` (musl, macOS, Windows) it does nothing.
"""

from __future__ import annotations

import ctypes
from typing import Callable, Optional


def _find_trim() -> Optional[Callable[[int], int]]:
    # the symbols already loaded into the process first: ``find_library`` runs
    # ``ldconfig -p`` in a child process (tens of ms at every import)
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        try:
            from ctypes.util import find_library

            libc = ctypes.CDLL(find_library("c") or "libc.so.6")
            trim = libc.malloc_trim
        except (OSError, AttributeError):
            return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _find_trim()

#: the fewest nodes for which a build trims the heap: below it node-sized
#: temporaries are at most half a MB each
TRIM_MIN_NODES = 1 << 16


def release_free_heap(nodes: Optional[int] = None) -> bool:
    """Return the C heap's free pages to the operating system (glibc only).

    Parameters
    ----------
    nodes : int, optional
        The number of nodes of the build asking; fewer than
        :data:`TRIM_MIN_NODES` and nothing is done. Omitted: always trim.

    Returns True when the call was made, False when the build is small or
    the C library has no ``malloc_trim``. Nothing in use is touched.

    Examples
    --------
    >>> release_free_heap() in (True, False)
    True
    >>> release_free_heap(nodes=1000)
    False
    """
    if _TRIM is None or (nodes is not None and nodes < TRIM_MIN_NODES):
        return False
    _TRIM(0)
    return True
