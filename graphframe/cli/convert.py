"""What ``graphframe convert`` does: read anything, write any format of the renderer registry
(:mod:`graphframe.render.registry`) or a graphframe archive."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, List, Optional

from ..io.json.stream import write_json
from ..io.archive import SUFFIX
from ..render.registry import RENDERERS, file_renderers
from .common import UsageError, check_output, open_profile, output_error

#: The binary output format: a graphframe archive (``GraphFrame.save``).
ARCHIVE = "graphframe"
ARCHIVE_HELP = "graphframe archive (Parquet tables; graphframe.load reads it)"


def output_formats() -> List[str]:
    """Every output format: the archive, then the text renderers a file ending selects.

    Examples
    --------
    >>> output_formats()
    ['graphframe', 'json', 'literal', 'dot', 'folded', 'speedscope']
    """
    return [ARCHIVE] + [r.name for r in file_renderers()]


def _suffixes() -> Dict[str, tuple]:
    return {ARCHIVE: (SUFFIX,), **{r.name: r.suffixes for r in file_renderers()}}


def output_format(path: str, to: Optional[str]) -> str:
    """The output format for ``path``: ``to`` if given, else the longest matching suffix.

    Examples
    --------
    >>> output_format("run.speedscope.json", None), output_format("x.json", None)
    ('speedscope', 'json')
    >>> output_format("out.txt", "folded")
    'folded'
    """
    if to is not None:
        return to
    name = os.path.basename(path).lower()
    matches = [(len(s), fmt) for fmt, suffixes in _suffixes().items() for s in suffixes
               if name.endswith(s)]
    if not matches:
        raise UsageError(f"cannot tell the output format from {path!r}; use --to with one of "
                         f"{', '.join(output_formats())}")
    return max(matches)[1]


def convert(in_path: str, out_path: str, to: Optional[str] = None,
            in_format: Optional[str] = None, progress: bool = False,
            reader_options: Optional[list] = None, **options: Any) -> Optional[str]:
    """Convert a profile; returns the text when ``out_path`` is ``-`` (stdout).

    ``options`` (``metric``, ``rank``, ``thread``, ``aggregate``, ``separator``,
    ``scale``, ``unit``; None for "not given") go to the renderer that takes them.
    """
    fmt = output_format(out_path, to)
    if out_path == "-" and fmt == ARCHIVE:
        raise UsageError(f"the {fmt} format is binary and cannot be written to stdout")
    check_output(out_path)  # before reading: a wrong folder is said at once
    gf = open_profile(in_path, in_format, progress=progress, options=reader_options)
    if fmt == ARCHIVE:
        gf.save(out_path)
        return None
    if fmt == "json" and out_path != "-":  # streamed: bounded memory, atomic replace
        write_json(gf, out_path, progress=progress or None)
        return None
    renderer = RENDERERS[fmt]
    text = renderer.render(gf, **{k: v for k, v in options.items()
                                  if v is not None and k in renderer.options})
    if out_path == "-":
        return text
    try:
        Path(out_path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise output_error(out_path, exc) from exc
    return None


def writer_help() -> List[str]:
    """One line per output format (for ``--help``)."""
    lines = [f"{ARCHIVE} ({SUFFIX}): {ARCHIVE_HELP}"]
    return lines + [f"{r.name} ({', '.join(r.suffixes)}): {r.description}"
                    for r in file_renderers()]
