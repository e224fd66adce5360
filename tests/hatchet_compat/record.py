"""Record the expected output of the compatibility scripts by running real Hatchet.

Usage (Hatchet needs pandas < 3, so it lives in its own venv)::

    python3 -m venv /work/hatchetvenv
    /work/hatchetvenv/bin/pip install "llnl-hatchet==2024.1.3" "pandas<3"
    python tests/hatchet_compat/record.py --hatchet-python /work/hatchetvenv/bin/python \\
        [--data ../shared/data] [NN_topic ...]

Each script runs under Hatchet (``compat_runner.py --impl hatchet``); its
output becomes ``expected/NN_topic.txt`` after the corrections the script
declares, where Hatchet is wrong (``HATCHET-WRONG``: HATCHET_SPEC.md,
reference_facts.json, STYLE.md) or graphframe documents a deliberate
difference (``DELIBERATE``: the page that documents it)::

    # HATCHET-WRONG (<where it is documented>): <why>
    #   hatchet: '<a line Hatchet prints>'          (or a list of consecutive lines)
    #   ours:    '<the line we intend instead>'     (or a list of lines; [] drops them)

Every correction must match at least once, or recording fails. A cell in
which Hatchet raises is an error too, unless a correction replaces that line.
``expected/VERSIONS.txt`` notes the Hatchet, pandas, numpy and Python versions.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compat_runner  # noqa: E402

CORRECTION = re.compile(r"^#\s+(hatchet|ours):\s*(.*)$")


def corrections(script: Path) -> List[Tuple[List[str], List[str]]]:
    """The ``(hatchet lines, our lines)`` pairs declared in a script."""
    pairs: List[Tuple[List[str], List[str]]] = []
    pending = None
    for number, line in enumerate(script.read_text().splitlines(), start=1):
        match = CORRECTION.match(line)
        if not match:
            continue
        value = ast.literal_eval(match.group(2))
        lines = [value] if isinstance(value, str) else list(value)
        if match.group(1) == "hatchet":
            pending = lines
        elif pending is None:
            raise SystemExit(f"{script.name}:{number}: 'ours:' without a 'hatchet:' line before it")
        else:
            pairs.append((pending, lines))
            pending = None
    if pending is not None:
        raise SystemExit(f"{script.name}: a 'hatchet:' correction has no 'ours:' line")
    return pairs


def apply_corrections(script: Path, text: str) -> str:
    """Replace every block of Hatchet's lines that a correction names by our lines."""
    lines = text.split("\n")
    for wrong, right in corrections(script):
        out, k, hits = [], 0, 0
        while k < len(lines):
            if lines[k:k + len(wrong)] == wrong:
                out.extend(right)
                k += len(wrong)
                hits += 1
            else:
                out.append(lines[k])
                k += 1
        if not hits:
            raise SystemExit(f"{script.name}: correction {wrong!r} matches nothing in Hatchet's output")
        lines = out
    return "\n".join(lines)


def versions(python: str) -> str:
    code = ("import sys, hatchet, pandas, numpy; "
            "print(f'hatchet {hatchet.__version__}\\npandas {pandas.__version__}\\n"
            "numpy {numpy.__version__}\\npython {sys.version.split()[0]}')")
    return subprocess.run([python, "-c", code], check=True, capture_output=True,
                          text=True).stdout


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hatchet-python", required=True, help="python of a venv with Hatchet")
    parser.add_argument("--data", default=str(HERE.parents[2] / "shared" / "data"))
    parser.add_argument("names", nargs="*", help="script stems (default: all)")
    args = parser.parse_args(argv)
    scripts = [s for s in compat_runner.scripts()
               if not args.names or any(s.stem.startswith(n) for n in args.names)]
    compat_runner.EXPECTED.mkdir(exist_ok=True)
    for script in scripts:
        run = subprocess.run([args.hatchet_python, str(HERE / "compat_runner.py"), "--impl",
                              "hatchet", "--data", args.data, str(script)],
                             capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"{script.name}: runner failed\n{run.stderr}")
        text = apply_corrections(script, run.stdout)
        failed = [line for line in text.splitlines() if line.startswith("!! ")]
        if failed:
            raise SystemExit(f"{script.name}: Hatchet raised {failed}\n{run.stderr}")
        (compat_runner.EXPECTED / f"{script.stem}.txt").write_text(text)
        print(f"recorded {script.stem}: {len(text.splitlines())} lines, "
              f"{len(corrections(script))} corrections")
    note = ("Expected outputs recorded by record.py from real Hatchet, then corrected where\n"
            "the scripts declare Hatchet wrong or graphframe deliberately different\n"
            "(HATCHET-WRONG and DELIBERATE comments).\n")
    (compat_runner.EXPECTED / "VERSIONS.txt").write_text(note + versions(args.hatchet_python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
