"""The documentation site stays whole: every page is in the navigation, every path named exists.

``mkdocs build --strict`` (CI, after the tests) checks links and the API
reference; these checks run with the test tools alone.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NAV_ENTRY = re.compile(r"^\s*-\s*(?:[^:\n]+:\s*)?([\w./-]+\.md)\s*$")
DOC_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]+\.md\b")  # not ../shared/docs/...


def nav_pages():
    """The pages ``mkdocs.yml`` lists under ``nav:``, in order."""
    lines = (ROOT / "mkdocs.yml").read_text().splitlines()
    start = lines.index("nav:")
    pages = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        match = NAV_ENTRY.match(line)
        if match:
            pages.append(match.group(1))
    return pages


def test_nav_parser_reads_the_entries():
    pages = nav_pages()
    assert pages[0] == "index.md"
    assert "architecture.md" in pages and "readers/hatchet.md" in pages


def test_every_page_is_in_the_navigation_and_every_entry_exists():
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    listed = nav_pages()
    assert len(listed) == len(set(listed)), "a page is listed twice in mkdocs.yml"
    assert sorted(listed) == on_disk


def test_every_reader_family_has_a_page():
    families = sorted(p.parent.name for p in (ROOT / "readers").glob("*/__init__.py")
                      if p.parent.name not in ("common", "testing", "traces"))
    assert families, "no reader families found"
    pages = {p.stem for p in (DOCS / "readers").glob("*.md")}
    assert [f for f in families if f not in pages] == []


def _sources():
    for folder in ("graphframe", "readers", "tests", "benchmarks", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md") and "__pycache__" not in path.parts:
                yield path
    yield ROOT / "README.md"


def test_every_docs_path_named_in_code_and_docs_exists():
    dangling = sorted({f"{path.relative_to(ROOT)}: {name}"
                       for path in _sources()
                       for name in DOC_PATH.findall(path.read_text(encoding="utf-8"))
                       if not (ROOT / name).is_file()})
    assert dangling == []
