"""Run a Hatchet-style script cell by cell and return what it prints.

Standard library only: the same code runs the scripts under real Hatchet
(``record.py``, in Hatchet's own venv) and under graphframe (the tests, with
``shim/`` making ``import hatchet`` resolve to graphframe), so both outputs are
produced by one procedure.

A script is split into cells at lines starting with ``# %%`` (the notebook
convention of editors). Every cell's output is preceded by a marker line
``# %% [k] <title>``; an exception in a cell prints one line
``!! <ExceptionType>: <first line of the message>`` and the next cell runs,
so a failing cell shows up as a local difference, as in a notebook.

Command line::

    python compat_runner.py --impl hatchet|graphframe --data DIR SCRIPT...
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
import warnings
from pathlib import Path
from typing import Iterator, List, Tuple

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
EXPECTED = HERE / "expected"
SHIM = HERE / "shim"
MARKER = "# %%"


def split_cells(text: str) -> List[Tuple[str, int, str]]:
    """Cells of a script as ``(title, first line number, source)``.

    Code before the first marker is cell 0 with the title ``setup``.

    >>> [(t, n) for t, n, _ in split_cells("import x\\n# %% read\\nx.a()\\n")]
    [('setup', 1), ('read', 2)]
    """
    cells: List[Tuple[str, int, List[str]]] = [("setup", 1, [])]
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.startswith(MARKER):
            cells.append((line[len(MARKER):].strip(), number, []))
        else:
            cells[-1][2].append(line)
    return [(title, start, "".join(lines)) for title, start, lines in cells]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else ""


def run_script(path: Path, data_dir: Path, traceback_to: "io.TextIOBase | None" = None) -> str:
    """Execute ``path`` cell by cell in ``data_dir``; return its stdout with cell markers."""
    text = Path(path).read_text()
    out = io.StringIO()
    namespace = {"__name__": "__main__", "__file__": str(path)}
    previous = os.getcwd()
    added = str(SCRIPTS) not in sys.path
    if added:
        sys.path.insert(0, str(SCRIPTS))
    os.chdir(data_dir)
    try:
        with warnings.catch_warnings():  # a script's warning filters end with it
            _run_cells(path, text, namespace, out, traceback_to)
    finally:
        os.chdir(previous)
        if added:
            sys.path.remove(str(SCRIPTS))
    return out.getvalue()


def _run_cells(path: Path, text: str, namespace: dict, out: io.StringIO,
               traceback_to: "io.TextIOBase | None") -> None:
    for k, (title, start, source) in enumerate(split_cells(text)):
        if k == 0 and not source.strip():
            continue
        out.write(f"{MARKER} [{k}] {title}\n")
        code = compile("\n" * (start - 1) + source, str(path), "exec")
        try:
            with contextlib.redirect_stdout(out):
                exec(code, namespace)
        except Exception as exc:  # a failing cell is reported, the next one runs
            out.write(f"!! {type(exc).__name__}: {_first_line(exc)}\n")
            if traceback_to is not None:
                traceback_to.write(f"--- {Path(path).name} cell {k} ({title})\n")
                traceback.print_exc(file=traceback_to)


@contextlib.contextmanager
def hatchet_is_graphframe() -> Iterator[None]:
    """Make ``import hatchet`` import the shim over graphframe, then undo it (the
    modules, and the ``graphframe.options.hatchet_compat`` setting the shim turns on)."""
    import graphframe.options

    compat = graphframe.options.hatchet_compat
    saved = {k: v for k, v in sys.modules.items() if k == "hatchet" or k.startswith("hatchet.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(SHIM))
    try:
        yield
    finally:
        sys.path.remove(str(SHIM))
        graphframe.options.hatchet_compat = compat
        for k in [k for k in sys.modules if k == "hatchet" or k.startswith("hatchet.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def cell_outputs(text: str) -> List[Tuple[str, str]]:
    """Split a run's output at its cell markers: ``(marker line, output)`` per cell.

    >>> cell_outputs("# %% [1] read\\nx\\n# %% [2] tree\\n")
    [('# %% [1] read', 'x\\n'), ('# %% [2] tree', '')]
    """
    cells: List[Tuple[str, List[str]]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith(MARKER + " ["):
            cells.append((line.rstrip("\n"), []))
        elif cells:
            cells[-1][1].append(line)
    return [(marker, "".join(lines)) for marker, lines in cells]


def differing_cells(expected: str, actual: str) -> List[str]:
    """Marker lines of the cells whose output differs (a cell missing on one side counts)."""
    want, got = dict(cell_outputs(expected)), dict(cell_outputs(actual))
    return [m for m in list(want) + [m for m in got if m not in want] if want.get(m) != got.get(m)]


def scripts() -> List[Path]:
    """The numbered scripts, in order."""
    return sorted(SCRIPTS.glob("[0-9][0-9]_*.py"))


def main(argv: "List[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", choices=("hatchet", "graphframe"), required=True)
    parser.add_argument("--data", required=True, help="the shared data folder")
    parser.add_argument("--out", help="write NAME.txt per script into this folder")
    parser.add_argument("script", nargs="*", help="scripts (default: all)")
    args = parser.parse_args(argv)
    paths = [Path(s).resolve() for s in args.script] or scripts()
    context = hatchet_is_graphframe() if args.impl == "graphframe" else contextlib.nullcontext()
    with context:
        for path in paths:
            text = run_script(path, Path(args.data), traceback_to=sys.stderr)
            if args.out:
                Path(args.out, path.stem + ".txt").write_text(text)
            else:
                sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
