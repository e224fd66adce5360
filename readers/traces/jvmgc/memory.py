"""Fresh memory for a read without numpy's transparent-huge-page advice.

numpy asks the kernel for transparent huge pages (``madvise(MADV_HUGEPAGE)``)
on every array of 4 MB or more. A GC log read allocates many such arrays
for a short time (a block's positions, its event columns, the table's
columns); where the kernel's ``defrag`` setting is ``madvise`` (the usual
default), each of their first touches may compact memory to find a 2 MB page,
which cost a 200 MB read about a second of system time here (measured:
2.3-2.9 s of system time with the advice, 0.9-1.0 s without). The advice is
switched off while a log is decoded and its table built, and put back as it
was afterwards (a process-wide numpy setting; only performance depends on it).

Examples
--------
>>> import numpy as np
>>> with no_huge_pages():
...     a = np.zeros(10)
>>> len(a)
10
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

try:  # numpy >= 2: numpy._core; numpy 1.x: numpy.core
    from numpy._core.multiarray import _set_madvise_hugepage
except ImportError:  # pragma: no cover - depends on the numpy version
    try:
        from numpy.core.multiarray import _set_madvise_hugepage
    except ImportError:
        _set_madvise_hugepage = None

__all__ = ["no_huge_pages"]


@contextmanager
def no_huge_pages() -> Iterator[None]:
    """numpy's huge-page advice off inside the block (as it was afterwards)."""
    if _set_madvise_hugepage is None:
        yield
        return
    before = _set_madvise_hugepage(False)
    try:
        yield
    finally:
        _set_madvise_hugepage(before)
