"""Only the resolver looks at paths: no module outside ``graphframe/io/`` and the readers
inspects file-name suffixes, marker files or file heads to decide what an input is.

The scan reads every source file of ``graphframe/`` (``graphframe/io/`` excepted) and
looks for the ways a module recognises an input by itself: reading a file's first bytes,
testing an input suffix, naming a format's marker file, or calling a sniffer. Names of
output files (``plot -o out.png``, ``convert IN OUT``) are not inputs: the modules that
choose a writer from the output's name are listed with that reason.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: What recognising an input by hand looks like.
PATTERNS = {
    "reads a file head": re.compile(r"\.read\(\s*(\d+|HEAD_BYTES|len\([^)]*\))\s*\)"),
    "tests an input suffix": re.compile(
        r"""endswith\(\s*\(?\s*["'](\.cali|\.json|\.gfz|\.gfe|\.pstats|\.prof|\.dot|\.otf2|"""
        r"""\.meta|\.sts|\.pfw|\.sqlite|\.csv|\.itf|\.mlpd|\.log)["']"""),
    "compares a path suffix": re.compile(r"\.suffix(es)?\s*(==|!=|in\b|not in\b)|splitext\("),
    "names a marker file": re.compile(
        r"""["'](experiment\.xml|meta\.db|profile\.db|trace\.db|recorder\.mt|VERSION|"""
        r"""graphframe\.json|ensemble\.json)["']"""),
    "calls a sniffer": re.compile(r"\b(sniff|sniff_trace|identify|is_archive|is_database|"
                                  r"looks_like_json|read_head)\("),
}

#: Modules allowed a pattern, and why (output names, not inputs).
ALLOWED = {
    ("graphframe/cli/plot.py", "compares a path suffix"):
        "the picture's format comes from the output file's name (-o out.png)",
    ("graphframe/cli/convert.py", "compares a path suffix"):
        "the writer comes from the output file's name (convert IN OUT.json)",
    ("graphframe/ensemble/archive.py", "names a marker file"):
        "the Ensemble archive's own writer and loader name its manifest member; "
        "recognising an archive is the resolver's (format graphframe-ensemble)",
    ("graphframe/util/profiler.py", "tests an input suffix"):
        "Hatchet's Profiler names the .pstats file it writes (write_to_file(name))",
}


def offences(root: Path) -> list:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith("graphframe/io/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if code.lstrip().startswith((">>>", "...")):
                continue  # doctest examples write their own inputs
            for what, pattern in PATTERNS.items():
                if pattern.search(code) and (rel, what) not in ALLOWED:
                    found.append(f"{rel}:{number}: {what}: {line.strip()}")
    return found


def test_only_the_resolver_recognises_inputs():
    assert offences(REPO / "graphframe") == []


def test_the_scan_sees_each_way_of_recognising_an_input(tmp_path, monkeypatch):
    module = REPO / "graphframe" / "_scan_probe_test.py"
    lines = ['head = open(p, "rb").read(4096)', 'if p.endswith(".cali"): pass',
             'if path.suffix == ".json": pass', 'if (p / "meta.db").exists(): pass',
             'fmt = graphframe_readers.sniff(p)']
    module.write_text("\n".join(lines) + "\n")
    try:
        found = [o.split(": ")[1] for o in offences(REPO / "graphframe")
                 if o.startswith("graphframe/_scan_probe_test.py")]
    finally:
        module.unlink()
    assert found == list(PATTERNS)
