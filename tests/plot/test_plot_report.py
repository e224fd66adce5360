"""The HTML report: sections, tables, inline SVG, self-contained, and a real browser."""

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from graphframe.plot.report import report, write_report
from tests.plot.profiles import SOLVER, build, matplotlib_agg, solver

matplotlib_agg()

CHROMIUM = "/usr/bin/chromium"


def after():
    times = np.array([0.5, 1.0, 6.0, 2.5, 2.0, 0.25])[:, None] + \
        np.array([0, 0, 0.5, 0.4, 0, 0.1])[:, None] * np.arange(4)
    return build(SOLVER, times)


def sections(page):
    return re.findall(r'<section id="([^"]+)">', page)


def test_one_profile_has_summary_hotspots_plots_and_tree():
    page = report(solver(), labels=["run.cali"])
    assert sections(page) == ["summary", "hotspots", "plots", "tree"]
    assert "<title>Profile: run.cali</title>" in page
    assert re.findall(r'<figure id="([^"]+)">', page) == ["plot-flamegraph", "plot-top",
                                                          "plot-imbalance"]
    assert page.count("<svg") == 3
    assert '<td title="main &gt; solve &gt; spmv">spmv</td><td class="num">8.75</td>' in page
    assert '<details' in page  # the collapsible tree


def test_two_profiles_have_the_top_changes_and_the_tree_of_changes():
    page = report(solver(), after(), labels=["before.json", "after.json"], top=3)
    assert sections(page) == ["summary", "changes", "plots", "tree"]
    assert "Changes: before.json → after.json" in page
    assert re.findall(r'<figure id="([^"]+)">', page) == ["plot-flamegraph", "plot-changes",
                                                          "plot-imbalance"]
    # spmv: 8.75 -> 6.75 (faster), solve > MPI_Allreduce: 1.1 -> 3.1 (slower)
    assert ('<td title="main &gt; solve &gt; spmv">spmv</td><td>common</td>'
            '<td class="num">8.75</td>'
            '<td class="num">6.75</td><td class="num faster">-2</td>'
            '<td class="num faster">-22.9%</td>') in page
    assert '<td class="num slower">+2</td>' in page
    tree = page[page.index('<section id="tree">'):]
    assert "main (13.750 → 13.750, +0.0%)" in tree


def test_the_page_is_self_contained_deterministic_and_its_ids_unique():
    page = report(solver(), after())
    assert page == report(solver(), after())
    assert "<script" not in page and "<link" not in page and "@import" not in page
    urls = set(re.findall(r'https?://[^\s"\'<>)]+', page))
    assert urls == {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}  # namespaces
    assert not re.search(r'(src|href)="(https?:|//)', page)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'url\(#([^)]+)\)', page))
    assert refs and refs <= set(ids)


def test_names_are_escaped_and_a_plot_that_cannot_be_drawn_is_a_note():
    nodes = [("main", -1, "app"), ("<b>bold</b>", 0, "app")]
    page = report(build(nodes, np.array([0.0, 0.0])))
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert ('<p class="note">Flame graph: width = inclusive value: not drawn (nothing to '
            "draw: no node has a positive time (inc) value)</p>") in page


def test_write_report(tmp_path):
    path = write_report(tmp_path / "r.html", solver())
    assert Path(path).read_text(encoding="utf-8") == report(solver())


def chromium(path, tmp_path):
    """(DOM, console lines) of ``path`` rendered by headless Chromium."""
    profile = tmp_path / "chromium-profile"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--dump-dom", Path(path).resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"{CHROMIUM} not installed (apt-get install chromium)")


#: Appended to a copy of a report (the report itself has no script): what the browser laid
#: out, written into the DOM that --dump-dom prints.
PROBE = """<script>
const tree = document.querySelector("#tree");
const shown = (el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
const lines = [...tree.querySelectorAll("summary, div[style*='margin-left']")];
const text = tree.querySelector(".graphframe, pre");
const probe = {
  font: getComputedStyle(text).fontSize,
  visible: lines.filter(shown).map((el) => el.textContent.trim()),
  sections: [...document.querySelectorAll("section")].filter(shown).map((el) => el.id),
};
document.body.setAttribute("data-probe", JSON.stringify(probe));
</script>"""


def probe(page, tmp_path):
    """What Chromium laid out for the report ``page`` (see PROBE)."""
    import html as html_module
    import json

    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                      encoding="utf-8")
    dom, console = chromium(probed, tmp_path)
    assert console == []
    found = re.search(r'data-probe="([^"]*)"', dom)
    return json.loads(html_module.unescape(found.group(1)))


@needs_chromium
def test_a_browser_finds_the_sections_and_no_console_errors(tmp_path):
    page = tmp_path / "report.html"
    write_report(page, solver(), after(), labels=["before", "after"])
    dom, console = chromium(page, tmp_path)
    assert console == []
    for sid in ("summary", "changes", "plots", "tree"):
        assert f'<section id="{sid}">' in dom
    assert dom.count("<svg") == 3 and dom.count("</svg>") == 3
    assert "Top changes" in dom and "<table>" in dom
    laid_out = probe(page, tmp_path)
    assert laid_out["sections"] == ["summary", "changes", "plots", "tree"]
    assert laid_out["font"] == "14px"  # the tree of changes (a <pre>): was 0.8 em of 13 px


def deep_chain(depth=30):
    """main > f1 > ... > f29 > hot_leaf (the hot path), each level with a cold sibling."""
    nodes = [("main", -1, "app")]
    parent = 0
    for i in range(1, depth):
        nodes.append((f"f{i}", parent, "app"))
        nodes.append((f"cold{i}", parent, "app"))
        parent = len(nodes) - 2
    nodes.append(("hot_leaf", parent, "app"))
    times = np.array([1.0 if name.startswith("cold") else 0.1 for name, _, _ in nodes])
    times[-1] = 50.0
    return build(nodes, times)


@needs_chromium
def test_the_tree_of_one_profile_is_readable_with_the_hot_path_open(tmp_path):
    gf = deep_chain()
    page = tmp_path / "one.html"
    write_report(page, gf, labels=["deep"])
    laid_out = probe(page, tmp_path)
    assert laid_out["sections"] == ["summary", "hotspots", "plots", "tree"]
    assert laid_out["font"] == "14px"  # the notebook view is 12 px
    visible = laid_out["visible"]
    assert any(line.endswith("hot_leaf") for line in visible)
    assert all(any(line.endswith(f" f{i}") for line in visible) for i in range(1, 30))
    # the cold siblings are there, closed; nothing under them is open
    assert sum(line.endswith(f"cold{i}") for line in visible for i in range(1, 30)) == 29
    # before: the notebook view, two levels open, stopped at depth 4
    from graphframe.render.html import render_html

    assert "hot_leaf" not in render_html(gf)


@needs_chromium
def test_the_browser_check_does_see_console_errors(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><p>x</p><script>notDefined()</script>")
    _, console = chromium(bad, tmp_path)
    assert len(console) == 1 and "Uncaught ReferenceError: notDefined" in console[0]



# ---- issue 33 items 7 and 8: say which kind each part shows; one imbalance threshold ----


def figure_of(page, fig_id):
    start = page.index(f'<figure id="{fig_id}">')
    return page[start:page.index("</figure>", start)]


def headings(page):
    return re.findall(r"<h3>([^<]*)</h3>", page)


def test_spot_profiles_say_their_values_are_inclusive_and_why_none_are_exclusive(shared_data):
    import graphframe
    from graphframe.errors import MetricError

    folder = shared_data / "caliper" / "thicket" / "mpi_scaling_cali"
    before, after = (graphframe.read(folder / f) for f in ("27_cores.cali", "64_cores.cali"))
    page = report(before, after, labels=["27", "64"])
    assert headings(page) == ["Inclusive changes (Min time/rank)", "Exclusive changes"]
    why = ("Not shown: metric &#x27;Min time/rank&#x27; has no exclusive form in this diff: the "
           "profiles declare it inclusive only, with no exclusive partner")
    assert why in page
    assert "Largest exclusive changes" not in page
    caption = re.search(r"<figcaption>([^<]*)</figcaption>", figure_of(page, "plot-changes"))
    assert caption.group(1) == ("Largest inclusive changes (red slower, blue faster); "
                                "Min time/rank has no exclusive form (why: Top changes)")
    with pytest.raises(MetricError, match="has no exclusive form in this diff: the profiles "
                                          "declare it inclusive only"):
        graphframe.diff(before, after).ranked_changes(kind="exclusive")
    one = report(before, labels=["27"])
    assert headings(one) == ["Exclusive values", "Inclusive values (Min time/rank [s])"]
    assert ("Not shown: metric &#x27;Min time/rank&#x27; is inclusive only and is combined by "
            "&#x27;min&#x27; across ranks, not summed, so no exclusive form can be derived") in one
    top = figure_of(one, "plot-top")
    assert "<svg" in top  # drawn, with inclusive values
    assert ("<figcaption>Call paths with the largest inclusive values; Min time/rank has no "
            "exclusive form (why: Top call paths)</figcaption>") in top


def test_profiles_with_both_kinds_say_so():
    page = report(solver(), after(), top=3)
    assert headings(page) == ["Inclusive changes (time (inc))", "Exclusive changes (time)"]
    assert ("<figcaption>Largest exclusive changes (red slower, blue faster)</figcaption>"
            in figure_of(page, "plot-changes"))
    one = report(solver())
    assert headings(one) == ["Exclusive values (time, mean over ranks)",
                             "Inclusive values (time (inc), mean over ranks)"]
    assert "Call paths with the largest exclusive values</figcaption>" in one


def blip_profile():
    """8 ranks: 'skewed' really imbalanced; 'blip' ran 1e-6 on one rank (imbalance 8)."""
    nodes = [("main", -1, "app"), ("work", 0, "app"), ("skewed", 0, "app"),
             ("blip", 0, "app")]
    times = np.zeros((4, 8))
    times[0] = 0.1
    times[1] = 10.0
    times[2] = np.arange(8) + 1.0   # max/mean = 8 / 4.5
    times[3, 5] = 1e-6
    return build(nodes, times)


def test_the_report_heatmap_and_stats_leave_out_the_same_negligible_call_paths():
    from graphframe.cli.stats import ranked_nodes
    from graphframe.plot.matrix import rank_matrix

    gf = blip_profile()
    raw = rank_matrix(gf, "time", imbalance=True, top=10, threshold=0)
    assert raw.row_labels[0] == "blip" and raw.stat[0] == 8.0  # what the report used to show
    m = rank_matrix(gf, "time", imbalance=True, top=10)
    table = ranked_nodes(gf, "time", ("rank",), 1.0)[0]
    assert m.nodes.tolist() == [int(v) for v in table.index] and m.row_labels[0] == "skewed"
    assert "blip" not in m.row_labels
    page = report(gf)
    heat = figure_of(page, "plot-imbalance")
    assert ">skewed<" in heat and ">blip<" not in heat
    assert ("call paths whose largest value is under 1% of the largest are left out, as in "
            "graphframe stats") in heat
    # the rule can be changed, the same way for both
    assert "blip" in rank_matrix(gf, "time", imbalance=True, top=10, threshold=0).row_labels
    assert len(ranked_nodes(gf, "time", ("rank",), 0.0)[0]) == 4


@needs_chromium
def test_a_deep_hpctoolkit_tree_shows_its_hot_path(shared_data, tmp_path):
    import graphframe

    gf = graphframe.read(shared_data / "hpctoolkit" / "hatchet-gamess-v4-database")
    page = tmp_path / "gamess.html"
    write_report(page, gf, labels=["gamess"])
    laid_out = probe(page, tmp_path)
    assert laid_out["font"] == "14px"
    visible = laid_out["visible"]
    # main thread: its heaviest path, 26 levels down to the line of sched_yield in MPI_Recv
    assert visible[visible.index("1608.492 main thread") + 1] == "1608.492 gamess_"
    assert "796.544 [libc-2.31.so]:0" in visible
    assert len(visible) == 49 and visible[-1] == "0.036 vclr_ …"
