"""Which region is open at each event of a stream (numpy, chunk by chunk).

Formats such as OTF2 record a message or a collective as its own event
inside the region of the MPI call (``Enter MPI_Send``, ``MpiSend``,
``Leave``). The event contract names such a data event after its call, so a
decoder needs, for every event, the innermost region open at it.
:class:`OpenRegions` computes that per chunk of one stream with a depth
cumulative sum and one pass per nesting level, and carries the regions
still open into the next chunk.

Examples
--------
>>> import numpy as np
>>> s = OpenRegions()
>>> enc = s.enclosing(np.array([1, 0, 1, 0, 0, 0]), np.array([0, 0, 0, 0, 1, 0]),
...                   np.array([7, -1, 8, -1, -1, -1]))
>>> enc.tolist(), s.stack
([7, 7, 8, 8, 8, 7], [7])
>>> s.enclosing(np.array([0]), np.array([1]), np.array([-1])).tolist(), s.stack
([7], [])
"""

from __future__ import annotations

from typing import List

import numpy as np


class OpenRegions:
    """The stack of open regions of one stream, advanced one chunk at a time."""

    def __init__(self) -> None:
        #: region ids (whatever ``enter_value`` holds), outermost first
        self.stack: List[int] = []

    def enclosing(self, is_enter: np.ndarray, is_leave: np.ndarray,
                  enter_value: np.ndarray) -> np.ndarray:
        """Per event, ``enter_value`` of the innermost region open at it (-1: none).

        For an ENTER that is the region it opens; for a LEAVE the region it
        closes. A LEAVE with nothing open is ignored (depth stays at 0).
        """
        is_enter = np.asarray(is_enter, dtype=bool)
        is_leave = np.asarray(is_leave, dtype=bool)
        n = len(is_enter)
        step = is_enter.astype(np.int64) - is_leave.astype(np.int64)
        depth = np.maximum(len(self.stack) + np.cumsum(step), 0)  # after each event
        level = np.where(is_leave, depth + 1, depth)  # a LEAVE belongs to the level it closes
        out = np.full(n, -1, dtype=np.int64)
        top = int(level.max()) if n else 0
        idx = np.arange(n)
        new_stack: List[int] = []
        final = int(depth[-1]) if n else len(self.stack)
        for lv in range(1, max(top, final, len(self.stack)) + 1):
            at = np.where(is_enter & (level == lv), idx, -1)
            last = np.maximum.accumulate(at) if n else at
            carried = self.stack[lv - 1] if lv <= len(self.stack) else -1
            values = np.where(last >= 0, enter_value[np.maximum(last, 0)], carried)
            mask = level == lv
            out[mask] = values[mask]
            if lv <= final:
                new_stack.append(int(values[-1]) if n else carried)
        self.stack = new_stack
        return out
