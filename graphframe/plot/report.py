"""One self-contained HTML page about a profile, or about a regression between two.

``report(before)`` or ``report(before, after)`` returns the page as text: no
script, no stylesheet or font to fetch, every plot an inline SVG, so the
file can be attached to a CI run and opened anywhere offline. Sections
(each a ``<section>`` with a fixed id):

- ``summary``: what each profile is (nodes, rows, ranks, metrics, total);
- ``changes`` (two profiles): the largest inclusive and exclusive changes
  (:meth:`GraphFrame.ranked_changes`), above the noise threshold;
  ``hotspots`` (one profile): the call paths with the largest values;
- ``plots``: flame graph (a diff's: coloured by delta), the top call paths
  (a diff's: the largest exclusive changes, red slower, blue faster) and,
  when the (after) profile has several ranks, where imbalance sits;
- ``tree``: the diff tree, or the profile's collapsible tree with each root's hot
  path (its heaviest path) expanded to the leaf; both in a 14 px font.

A plot that cannot be drawn (say, no positive values) is replaced by a note
saying why; everything else is still written. Output is deterministic.
"""

from __future__ import annotations

import html
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import GraphframeError
from ._sources import (IMBALANCE_THRESHOLD, ArgumentError, check_metric, diff, diff_record,
                       render_html, resolve_metric, summary, version)
from .bar import bar, bar_chart
from .common import call_path, check_top, exclusive_form, node_metric, short_labels
from .flame import flamegraph
from .heatmap import heatmap
from .svg import figure_svg, new_figure
from ..model.dataframe import plain_values

SLOWER = "#c0392b"
FASTER = "#2166ac"

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #222; background: #fff; }
header, section, footer { padding: 0.6em 2em; }
header { background: #f3f4f6; border-bottom: 1px solid #ddd; }
h1 { font-size: 1.4em; margin: 0.3em 0; } h2 { font-size: 1.15em; margin: 1em 0 0.4em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; font-size: 0.85em; margin-bottom: 1em; }
th, td { border-bottom: 1px solid #e5e5e5; padding: 0.2em 0.7em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.slower { color: #c0392b; } td.faster { color: #2166ac; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: #555; }
pre { font-size: 14px; line-height: 1.35; overflow-x: auto; background: #fafafa;
      padding: 0.6em; border: 1px solid #eee; }
.note { color: #8a6d3b; }
"""


def report(before: Any, after: Any = None, *, metric: Any = None, top: int = 10,
           threshold: float = 1.0, title: Optional[str] = None,
           labels: Optional[Sequence[str]] = None, max_tree_lines: int = 400) -> str:
    """HTML page about ``before`` (or the changes from ``before`` to ``after``).

    Parameters
    ----------
    before, after : GraphFrame
        One profile, or the reference and the profile compared with it.
    metric : str, optional
        Metric shown (default: the default metric; for two profiles, every
        metric both have is diffed and this one is shown).
    top : int
        Rows of the tables and bars of the bar chart.
    threshold : float
        Noise threshold of the diff, percent of before's total.
    title : str, optional
    labels : sequence of str, optional
        Names of the profiles (default: their ``metadata["source"]``).
    max_tree_lines : int
        Lines of the diff tree written at most.

    Examples
    --------
    >>> from graphframe.examples import example_graphframe
    >>> page = report(example_graphframe())  # doctest: +SKIP
    >>> '<section id="plots">' in page       # doctest: +SKIP
    True
    """
    top = check_top(top)
    profiles = [before] if after is None else [before, after]
    names = _labels(profiles, labels)
    if after is None:
        check_metric(before, metric)  # an unknown metric is an error, not a page of notes
        title = title or f"Profile: {names[0]}"
        body = [_summary(profiles, names, metric), _hotspots(before, metric, top),
                _single_plots(before, metric, top), _tree(before)]
    else:
        d = diff(before, after, metric, threshold=threshold)
        title = title or f"Changes: {names[0]} → {names[1]}"
        body = [_summary(profiles, names, metric), _changes(d, top, threshold),
                _diff_plots(d, after, top), _diff_tree(d, max_tree_lines)]
    return _page(title, body)


def _labels(profiles: List[Any], labels: Optional[Sequence[str]]) -> List[str]:
    if labels is not None:
        if len(labels) != len(profiles):
            raise ArgumentError(f"labels: give {len(profiles)} names, got {len(labels)}")
        return [str(x) for x in labels]
    default = ["before", "after"] if len(profiles) == 2 else ["profile"]
    return [str(gf.metadata.get("source") or d) for gf, d in zip(profiles, default)]


def _page(title: str, sections: List[Tuple[str, str, str]]) -> str:
    nav = " ".join(f'<a href="#{sid}">{html.escape(head)}</a>' for sid, head, _ in sections)
    parts = [f'<section id="{sid}">\n<h2>{html.escape(head)}</h2>\n{content}\n</section>'
             for sid, head, content in sections]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<header>\n<h1>{html.escape(title)}</h1>\n<nav>{nav}</nav>\n</header>\n"
            + "\n".join(parts)
            + f"\n<footer><p class=\"note\">Written by graphframe {html.escape(version)}."
              "</p></footer>\n</body>\n</html>\n")


def _table(header: Sequence[str], rows: List[List[Tuple[str, ...]]]) -> str:
    """Rows of ``(css class, text[, tooltip])`` cells (escaped here)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_cell(*c) for c in row) + "</tr>\n" for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>"


def _cell(cls: str, text: str, tooltip: str = "") -> str:
    attrs = (f' class="{cls}"' if cls else "") + \
        (f' title="{html.escape(tooltip)}"' if tooltip and tooltip != text else "")
    return f"<td{attrs}>{html.escape(text)}</td>"


def _summary(profiles: List[Any], names: List[str], metric: Any) -> Tuple[str, str, str]:
    rows = []
    for gf, name in zip(profiles, names):
        try:
            nv = node_metric(gf, metric, inclusive=True)
            roots = gf.graph.root_ids
            total = f"{np.nansum(nv.values[roots]):.6g} ({nv.label})"
        except GraphframeError as exc:
            total = f"not available: {exc}"
        rows.append([("", name), ("", summary(gf)), ("", total)])
    return "summary", "Profiles", _table(["profile", "contents", "total"], rows)


def _number(value: float) -> Tuple[str, str]:
    return "num", "" if value is None or np.isnan(value) else f"{value:.6g}"


def _changes(d: Any, top: Optional[int], threshold: float) -> Tuple[str, str, str]:
    parts = []
    for kind in ("inclusive", "exclusive"):
        try:
            table = d.ranked_changes(kind=kind, top=top)
        except GraphframeError as exc:  # the metric has no form of this kind: say why
            parts.append(f"<h3>{kind.capitalize()} changes</h3>")
            parts.append(f'<p class="note">Not shown: {html.escape(str(exc))}.</p>')
            continue
        if kind == "inclusive" and _kind(d, table.attrs["metric"]) != "inclusive":
            # the default metric has no inclusive form: these are its own values
            parts.append(f"<h3>{_kind(d, table.attrs['metric']).capitalize()} changes "
                         f"({html.escape(str(table.attrs['metric']))}; no inclusive form)</h3>")
        else:
            parts.append(f"<h3>{kind.capitalize()} changes "
                         f"({html.escape(str(table.attrs['metric']))})</h3>")
        if not len(table):
            parts.append(f'<p class="note">No change of at least {threshold:g}% of the before '
                         "total.</p>")
            continue
        rows = []
        short = short_labels(d, plain_values(table.index))
        for label, path, status, b, a, delta, pct in zip(
                short, table["path"].tolist(), table["status"].tolist(), table["before"].tolist(),
                table["after"].tolist(), table["delta"].tolist(), table["change %"].tolist()):
            cls = "num slower" if delta > 0 else "num faster" if delta < 0 else "num"
            change = "new" if np.isinf(pct) and pct > 0 else "" if np.isnan(pct) else f"{pct:+.1f}%"
            rows.append([("", label, path), ("", status), _number(b), _number(a),
                         (cls, f"{delta:+.6g}"), (cls, change)])
        parts.append(_table(["call path", "status", "before", "after", "delta", "change"], rows))
    return "changes", "Top changes", "\n".join(parts)


def _hotspots(gf: Any, metric: Any, top: Optional[int]) -> Tuple[str, str, str]:
    parts = []
    for inclusive in (False, True):
        kind = "inclusive" if inclusive else "exclusive"
        try:
            nv = node_metric(gf, metric, inclusive=inclusive)
        except GraphframeError as exc:
            parts.append(f"<h3>{kind.capitalize()} values</h3>")
            parts.append(f'<p class="note">Not shown: {html.escape(str(exc))}.</p>')
            continue
        has = np.flatnonzero(np.isfinite(nv.values))
        order = has[np.lexsort((has, -nv.values[has]))][:top]
        total = float(np.nansum(nv.values[gf.graph.root_ids])) if inclusive else \
            float(np.nansum(nv.values))
        rows = [[("", label, call_path(gf, v)), _number(value),
                 ("num", f"{100.0 * value / total:.1f}%" if total else "")]
                for label, v, value in zip(short_labels(gf, order), order.tolist(),
                                           nv.values[order].tolist())]
        parts.append(f"<h3>{kind.capitalize()} values ({html.escape(nv.label)})</h3>")
        parts.append(_table(["call path", "value", "of total"], rows))
    return "hotspots", "Top call paths", "\n".join(parts)


def _figure(fig_id: str, caption: str, draw: Any, size: Tuple[float, float]) -> str:
    """An inline SVG figure, or a note when the plot cannot be drawn."""
    fig = new_figure(size)
    try:
        draw(fig.axes[0])
    except GraphframeError as exc:
        return (f'<figure id="{fig_id}"><p class="note">{html.escape(caption)}: not drawn '
                f"({html.escape(str(exc))})</p></figure>")
    svg = figure_svg(fig, fig_id)
    return f'<figure id="{fig_id}">\n{svg}\n<figcaption>{html.escape(caption)}</figcaption>\n</figure>'


def _ranked(gf: Any) -> bool:
    index = gf.dataframe.index
    return "rank" in index.names and len(index.unique(level="rank")) > 1


def _plot_kind(gf: Any, metric: Any) -> Tuple[bool, str]:
    """``(inclusive, why)``: the form the bar chart and the heatmap show, exclusive when
    the metric has one; else inclusive, and ``why`` says so for the captions."""
    try:
        exclusive_form(gf, metric)
        return False, ""
    except GraphframeError:
        name = check_metric(gf, metric)
        return True, f"; {name} has no exclusive form (why: Top call paths)"


def _imbalance_caption(gf: Any, metric: Any, inclusive: bool, where: str) -> str:
    return (f"{where}: each rank's {'inclusive' if inclusive else 'exclusive'} value / the "
            "call path's mean over ranks, most imbalanced (max / mean) first; call paths "
            f"whose largest value is under {IMBALANCE_THRESHOLD:g}% of the largest are left "
            "out, as in graphframe stats")


def _threads(gf: Any, metric: Any) -> str:
    """How the heatmap combines the threads of a rank: as ``graphframe stats`` does."""
    name = check_metric(gf, metric)
    return "sum" if gf.aggregations.get(name, "sum") == "sum" else "mean"


def _single_plots(gf: Any, metric: Any, top: Optional[int]) -> Tuple[str, str, str]:
    inclusive, why = _plot_kind(gf, metric)
    figs = [_figure("plot-flamegraph", "Flame graph: width = inclusive value",
                    lambda ax: flamegraph(gf, metric, ax=ax), (12.0, 6.0)),
            _figure("plot-top", f"Call paths with the largest "
                    f"{'inclusive' if inclusive else 'exclusive'} values{why}",
                    lambda ax: bar(gf, metric, top=top, inclusive=inclusive, ax=ax),
                    (10.0, 1.5 + 0.35 * (top or 10)))]
    if _ranked(gf):
        figs.append(_figure("plot-imbalance",
                            _imbalance_caption(gf, metric, inclusive, "Where rank imbalance sits"),
                            lambda ax: heatmap(gf, metric, imbalance=True, top=top, ax=ax,
                                               inclusive=inclusive,
                                               aggregate=_threads(gf, metric)),
                            (10.0, 1.8 + 0.3 * (top or 10))))
    return "plots", "Plots", "\n".join(figs)


def _diff_plots(d: Any, after: Any, top: Optional[int]) -> Tuple[str, str, str]:
    kind, why = _bar_kind(d)
    primary = d.metadata["diff"]["primary"]
    figs = [_figure("plot-flamegraph", "Flame graph of the after profile, coloured by change "
                    "(red slower, blue faster)", lambda ax: flamegraph(d, ax=ax), (12.0, 6.0)),
            _figure("plot-changes", f"Largest {kind} changes (red slower, blue faster){why}",
                    lambda ax: _changes_bar(d, top, ax), (10.0, 1.5 + 0.35 * (top or 10)))]
    if _ranked(after):
        inclusive, _ = _plot_kind(after, primary)
        figs.append(_figure("plot-imbalance",
                            _imbalance_caption(after, primary, inclusive,
                                               "Rank imbalance in the after profile"),
                            lambda ax: heatmap(after, primary, imbalance=True, top=top, ax=ax,
                                               inclusive=inclusive,
                                               aggregate=_threads(after, primary)),
                            (10.0, 1.8 + 0.3 * (top or 10))))
    return "plots", "Plots", "\n".join(figs)


def _kind(d: Any, column: Any) -> str:
    return str(diff_record(d)["kinds"].get(column, "inclusive"))


def _bar_kind(d: Any) -> Tuple[str, str]:
    """``(kind, why)``: the changes the bar chart shows, exclusive when the primary metric
    has an exclusive form; else its own kind, and ``why`` says why for the caption."""
    try:
        resolve_metric(d, None, "exclusive")
        return "exclusive", ""
    except GraphframeError:
        primary = diff_record(d)["primary"]
        return _kind(d, primary), f"; {primary} has no exclusive form (why: Top changes)"


def _changes_bar(d: Any, top: Optional[int], ax: Any) -> Any:
    try:
        table = d.ranked_changes(kind="exclusive", top=top)
    except GraphframeError:
        table = d.ranked_changes(kind="as-is", top=top)
    if not len(table):
        raise ArgumentError("no change above the noise threshold")
    delta = table["delta"].to_numpy(dtype=np.float64)
    colours = [SLOWER if v > 0 else FASTER for v in delta.tolist()]
    return bar_chart(short_labels(d, plain_values(table.index)), delta, ax=ax, colors=colours,
                     value_label=f"{table.attrs['metric']} delta (after - before)")


#: Font size of the trees, CSS pixels (the notebook view's 12 px, and a ``<pre>`` at
#: 0.8 em of the browser's 13 px monospace, read as about 9 px in a screenshot).
TREE_FONT_PX = 14


def _tree(gf: Any) -> Tuple[str, str, str]:
    """The collapsible tree: the top levels, and each root's hot path expanded to its leaf
    (so a deep HPCToolkit tree shows where the time goes, not two closed nodes)."""
    return "tree", "Tree", render_html(gf, max_depth=4, open_depth=2, max_lines=300,
                                       hot_paths=True, font_px=TREE_FONT_PX)


def _diff_tree(d: Any, max_lines: int) -> Tuple[str, str, str]:
    lines = d.diff_tree(color=False, render_header=False).splitlines()
    shown = lines[:max_lines]
    note = (f'\n<p class="note">{len(lines) - max_lines} more lines not shown.</p>'
            if len(lines) > max_lines else "")
    return "tree", "Tree of changes", f"<pre>{html.escape(chr(10).join(shown))}</pre>{note}"


def write_report(path: Any, before: Any, after: Any = None, **options: Any) -> str:
    """Write :func:`report` to ``path`` (UTF-8) and return ``str(path)``."""
    text = report(before, after, **options)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return str(path)

