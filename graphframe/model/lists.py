"""Hatchet-style nested lists (``Graph.from_lists``) as frames and first parents."""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from .frame import Frame


def parse_lists(roots: Sequence[Any]) -> Tuple[List[dict], List[int]]:
    """Frames and first parents (pre-order) of Hatchet-style nested lists."""
    frames: List[dict] = []
    parents: List[int] = []

    def as_frame(item: Any) -> dict:
        if isinstance(item, str):
            return {"name": item, "type": "None"}
        if isinstance(item, Frame):
            return dict(item.attrs)
        if isinstance(item, dict):
            return dict(item)
        raise ValueError(f"cannot make a node from {item!r}: use a string, dict or Frame")

    stack: List[Tuple[Any, int]] = []
    for root in reversed(roots):
        if not isinstance(root, (list, tuple)):
            raise ValueError("Graph.from_lists: each root must be a list or tuple")
        stack.append((root, -1))
    while stack:
        item, parent = stack.pop()
        if isinstance(item, (list, tuple)):
            if not item:
                raise ValueError("Graph.from_lists: empty list")
            head, kids = item[0], item[1:]
        else:
            head, kids = item, ()
        frames.append(as_frame(head))
        parents.append(parent)
        me = len(frames) - 1
        for kid in reversed(kids):
            stack.append((kid, me))
    return frames, parents

