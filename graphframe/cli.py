"""The ``graphframe`` command line. The only module that looks at the terminal."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, TextIO

import readers

from ._version import __version__
from .errors import GraphframeError
from .examples import example_graphframe
from .graphframe import GraphFrame


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="graphframe",
        description="Analyse calling-context trees and call graphs from HPC and Python profilers.")
    parser.add_argument("--version", action="version", version=f"graphframe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    tree = sub.add_parser("tree", help="print a profile as an annotated call tree",
                          description="Print a profile as an annotated call tree.")
    src = tree.add_mutually_exclusive_group(required=True)
    src.add_argument("path", nargs="?", help="profile file or database directory")
    src.add_argument("--example", action="store_true",
                     help="use the built-in example profile (an MPI solver on 4 ranks)")
    tree.add_argument("--format", choices=readers.formats(), help="input format (default: detect)")
    tree.add_argument("--metric", "-m", action="append", metavar="M",
                      help="metric column to show; repeat to show several")
    tree.add_argument("--depth", "-d", type=int, default=10000, help="print nodes above this depth")
    tree.add_argument("--rank", type=int, default=0, help="rank to show (default 0)")
    tree.add_argument("--thread", type=int, default=0, help="thread to show (default 0)")
    tree.add_argument("--precision", type=int, default=3, help="decimals (default 3)")
    tree.add_argument("--name-column", default="name", help="column used as the node label")
    tree.add_argument("--expand-name", action="store_true", help="do not shorten long names")
    colour = tree.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="color", action="store_true", default=None,
                        help="always colour the output")
    colour.add_argument("--no-color", dest="color", action="store_false",
                        help="never colour the output")
    tree.add_argument("--ascii", action="store_true", help="ASCII glyphs instead of Unicode")
    tree.add_argument("--no-header", action="store_true", help="omit the header line")
    tree.set_defaults(run=_run_tree)

    fmts = sub.add_parser("formats", help="list the input formats graphframe reads")
    fmts.set_defaults(run=_run_formats)
    return parser


def main(argv: Optional[Sequence[str]] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Entry point; returns the exit status (0 ok, 1 error, 2 usage)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse reports usage errors itself
        return int(exc.code or 0)
    try:
        text = args.run(args, out)
        out.write(text)
        out.flush()
    except GraphframeError as exc:
        err.write(f"graphframe: error: {exc}\n")
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 0
    return 0


def _run_tree(args: argparse.Namespace, out: TextIO) -> str:
    gf = example_graphframe() if args.example else GraphFrame.read(args.path, format=args.format)
    metric = None
    if args.metric:
        metric = args.metric[0] if len(args.metric) == 1 else list(args.metric)
    unicode = not args.ascii and _can_encode(out, "├─│└◀▶")
    color = _use_color(out) if args.color is None else args.color
    return gf.tree(metric_column=metric, depth=args.depth, rank=args.rank, thread=args.thread,
                   precision=args.precision, name_column=args.name_column,
                   expand_name=args.expand_name, color=color, unicode=unicode,
                   render_header=not args.no_header)


def _run_formats(args: argparse.Namespace, out: TextIO) -> str:
    lines: List[str] = []
    for name in readers.formats():
        lines.append(f"{name:16} {readers.format_info(name).description}\n")
    return "".join(lines)


def _use_color(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def _can_encode(out: TextIO, sample: str) -> bool:
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
