"""``graphframe rma TRACE``: foRMA's report of the one-sided MPI operations of a trace."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..errors import GraphframeError


def add_parser(sub: Any) -> None:
    """Register ``rma`` with the CLI's sub-command parsers."""
    p = sub.add_parser(
        "rma", help="one-sided MPI statistics (foRMA): per rank, window and epoch",
        description="Print foRMA's report of the one-sided MPI operations (MPI_Put, MPI_Get, "
                    "MPI_Accumulate...) of a trace: counts, bytes, durations and data-transfer "
                    "bounds (start to the end of the next completing fence, complete or "
                    "unlock) per rank, per window, per epoch, and totals.",
        epilog="Exit status 1 when the trace has no one-sided operation.")
    p.add_argument("path", metavar="TRACE_DIR",
                   help="trace folder or file (SST DUMPI .meta/folder, OTF2...)")
    p.add_argument("--format", help="trace format (default: detect)")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="worker processes for the rank files (default: this process)")
    p.add_argument("--epochs", type=int, default=50, metavar="N",
                   help="rows of the per-epoch table (default 50; 0: every epoch)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> str:
    """Read the trace's calls and render the report."""
    from ..traces.read_many import read_calls  # the trace layers load only here
    from ..traces.rma_report import rma_report

    calls, _ = read_calls(args.path, args.format, jobs=args.jobs, args=False)
    if not calls["kind"].astype(str).eq("rma").any():
        raise GraphframeError(f"{args.path}: no one-sided MPI operations (MPI_Put, MPI_Get, "
                              "MPI_Accumulate...) in this trace; foRMA's report needs them")
    return "\n".join(rma_report(calls, str(args.path), epochs=args.epochs)) + "\n"
