"""The renderer contract: every text output of a GraphFrame behind one call.

A :class:`Renderer` names a function ``render(gf, **options) -> str`` (as
``"module:function"``, imported on first use so that listing the renderers
costs nothing), the keyword options it takes, the file name endings that
select it and a description. ``graphframe convert`` picks its output format
here, and one test renders every entry (same text twice, the options it
declares accepted, any other refused). The GraphFrame methods (``tree``,
``to_dot``...) call the same functions directly.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Tuple

from ..errors import ArgumentError
from ..model.fields import GraphFrameLike


@dataclass(frozen=True)
class Renderer:
    """One output format: ``render(gf, **options)`` returns its text."""

    name: str
    target: str
    options: Tuple[str, ...]
    suffixes: Tuple[str, ...]
    description: str

    @property
    def function(self) -> Callable[..., str]:
        """The rendering function (its module is imported on first use)."""
        module, name = self.target.split(":")
        return getattr(importlib.import_module(module), name)

    def render(self, gf: GraphFrameLike, **options: Any) -> str:
        """The text of ``gf``; an option this renderer does not take is an ArgumentError.

        Examples
        --------
        >>> from graphframe import GraphFrame
        >>> gf = GraphFrame.from_lists(("main", "solve"))
        >>> print(RENDERERS["folded"].render(gf, scale=10), end="")
        main 10
        main; solve 10
        >>> RENDERERS["json"].render(gf, rank=0)
        Traceback (most recent call last):
        ...
        graphframe_readers.errors.ArgumentError: the json renderer takes no options; got rank
        """
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            takes = (f"takes {', '.join(self.options)}" if self.options else "takes no options")
            raise ArgumentError(f"the {self.name} renderer {takes}; got {', '.join(unknown)}")
        return self.function(gf, **options)


_PICK = ("rank", "thread")
_VALUES = ("metric", "name", "rank", "thread", "threshold", "aggregate")

RENDERERS: Dict[str, Renderer] = {r.name: r for r in [
    Renderer("tree", "graphframe.render.tree:render_tree",
             ("metric_column", "annotation_column", "precision", "name_column", "expand_name",
              "context_column", "rank", "thread", "depth", "highlight_name", "colormap",
              "invert_colormap", "colormap_annotations", "render_header", "min_value",
              "max_value", "color", "unicode", "legend"), (),
             "Hatchet's indented text tree (GraphFrame.tree)"),
    Renderer("json", "graphframe.io.json.export:to_json", (), (".json",),
             "Hatchet's to_json layout (GraphFrame.from_json reads it)"),
    Renderer("literal", "graphframe.io.json.export:to_literal_json",
             ("name", "cat_columns", "include_nid") + _PICK, (".literal.json",),
             "Hatchet's literal (nested dicts, one rank)"),
    Renderer("dot", "graphframe.render.dot:render_dot", _VALUES, (".dot", ".gv"),
             "Graphviz DOT, Hatchet's to_dot layout"),
    Renderer("folded", "graphframe.render.flamegraph:render_flamegraph",
             _VALUES + ("separator", "scale"), (".folded", ".collapsed"),
             "folded stacks for flame graphs (flamegraph.pl, inferno, speedscope)"),
    Renderer("speedscope", "graphframe.render.speedscope:render_speedscope",
             ("metric", "name", "aggregate", "all_ranks", "unit", "title") + _PICK,
             (".speedscope.json",), "speedscope JSON (www.speedscope.app)"),
    Renderer("html", "graphframe.render.html:render_html",
             ("metric", "max_depth", "max_children", "max_lines", "open_depth", "hot_paths",
              "font_px") + _PICK, (),
             "the HTML summary notebooks show (GraphFrame._repr_html_)"),
    Renderer("diff-tree", "graphframe.render.diff_tree:render_diff_tree",
             ("metric", "kind", "precision", "depth", "name_column", "expand_name",
              "changed_only", "color", "unicode", "render_header"), (),
             "a diff result (graphframe.diff) as a tree of deltas"),
]}


def file_renderers() -> List[Renderer]:
    """The renderers a file name ending selects (the ``convert`` formats besides archives).

    Examples
    --------
    >>> [r.name for r in file_renderers()]
    ['json', 'literal', 'dot', 'folded', 'speedscope']
    """
    return [r for r in RENDERERS.values() if r.suffixes]
