"""Emulated call stacks: method enter/leave events -> closed calls, as mprof-report pairs them.

One stack per thread. An enter pushes the method; a leave (or exception
leave) pops it only when it is the method on top, otherwise it is an
unmatched leave (counted, the stack unchanged) - mprof-report's rule. A
closed call gives its method, inclusive time and the inclusive time of the
calls it made (``callee``), so self time is ``inclusive - callee``; with
``paths=True`` each open frame also carries its call-path node (interned
``(parent node, method)`` pairs: the calling-context tree), for the tree
builder. Frames still open at the end are closed at each thread's last
time (:meth:`CallStacks.close`). Memory: the open frames and the path
table, never the events.

Examples
--------
>>> cs = CallStacks(paths=True)
>>> out = cs.feed([1, 1, 1, 1], [0, 2, 5, 9], [10, 20, 20, 10], [True, True, False, False])
>>> out["method"], out["inclusive"], out["callee"], out["node"]
([20, 10], [3, 9], [0, 3], [1, 0])
>>> cs.path_parent, cs.path_method
([-1, 0], [10, 20])
"""

from __future__ import annotations

from typing import Dict, List, Sequence


class CallStacks:
    """Per-thread emulated stacks (see the module docs)."""

    def __init__(self, paths: bool = False) -> None:
        self.paths = paths
        self.stacks: Dict[int, List[list]] = {}
        self.unmatched = 0
        self.unmatched_methods: List[tuple] = []     # (depth, method) of the first few
        # calling-context tree shared by the threads: node -> parent node, method
        self.path_parent: List[int] = []
        self.path_method: List[int] = []
        self._path_ids: Dict[tuple, int] = {}

    def _node(self, parent: int, method: int) -> int:
        key = (parent, method)
        node = self._path_ids.get(key)
        if node is None:
            node = self._path_ids[key] = len(self.path_parent)
            self.path_parent.append(parent)
            self.path_method.append(method)
        return node

    def feed(self, threads: Sequence[int], times: Sequence[int], methods: Sequence[int],
             enters: Sequence[bool]) -> Dict[str, list]:
        """Process events in order; returns the calls they closed (lists per field)."""
        out_m: List[int] = []
        out_inc: List[int] = []
        out_callee: List[int] = []
        out_node: List[int] = []
        out_thread: List[int] = []
        stacks = self.stacks
        paths = self.paths
        stack: List[list] = []
        current = None
        for thread, time, method, enter in zip(threads, times, methods, enters):
            if thread != current:
                stack = stacks.get(thread)
                if stack is None:
                    stack = stacks[thread] = []
                current = thread
            if enter:
                node = -1
                if paths:
                    node = self._node(stack[-1][3] if stack else -1, method)
                stack.append([method, time, 0, node])
            elif stack and stack[-1][0] == method:
                frame = stack.pop()
                inc = time - frame[1]
                if stack:
                    stack[-1][2] += inc
                out_m.append(method)
                out_inc.append(inc)
                out_callee.append(frame[2])
                out_node.append(frame[3])
                out_thread.append(thread)
            else:
                self.unmatched += 1
                if len(self.unmatched_methods) < 100:
                    self.unmatched_methods.append((len(stack), method))
        return {"method": out_m, "inclusive": out_inc, "callee": out_callee, "node": out_node,
                "thread": out_thread}

    def close(self, last_time: Dict[int, int]) -> Dict[str, list]:
        """Close every open frame at its thread's last time (innermost first)."""
        threads, times, methods = [], [], []
        for thread, stack in self.stacks.items():
            end = last_time.get(thread, stack[-1][1] if stack else 0)
            for frame in reversed(stack):
                threads.append(thread)
                times.append(end)
                methods.append(frame[0])
        return self.feed(threads, times, methods, [False] * len(threads))
