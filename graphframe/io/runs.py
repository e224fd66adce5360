"""Several files read as one profile must be the ranks of one run.

A list of files, or a directory of them, read as one profile becomes one
GraphFrame with a rank level: that is right for the per-rank files of one MPI
run, and wrong for different runs (a scaling study, repeated runs), whose
values would be shown as ranks of a run that never happened. Readers merge the
files' metadata as one value when the files agree and a per-file list when
they differ (see ``graphframe_readers.caliper.ranks``); :func:`check_one_run` reads that
merge and refuses a set whose files disagree on what identifies a run, or
whose rank ids fall outside the run's world size. Distinct rank ids per file
are the readers' own check (a rank in two files is their ``ReadError``).
"""

from __future__ import annotations

import os
from typing import Any, List, Mapping, Optional, Sequence

import numpy as np

from ..errors import ReadError

#: metadata that every rank of one run shares exactly
SAME_KEYS = ("mpi.world.size", "jobsize", "jobid", "job_id", "slurm.job_id", "cmdline",
             "executablepath", "executable")
#: launch times (seconds): the ranks of one run start within this many seconds
LAUNCH_KEYS = ("launchdate",)
LAUNCH_TOLERANCE = 60.0
WORLD_SIZE = "mpi.world.size"
class NotOneRunError(ReadError):
    """Files read as one profile are not the ranks of one run (see :func:`check_one_run`)."""


ADVICE = ("read each file as its own profile (graphframe.read(file)), or all of them as the "
          "runs of an ensemble (graphframe.Ensemble.read(files))")


def check_one_run(path: Any, metadata: Mapping[str, Any], ranks: Optional[np.ndarray]) -> None:
    """Raise :class:`ReadError` unless the files read as one profile are one run's ranks.

    Parameters
    ----------
    path : path-like or list of path-likes
        What was read (named in the error).
    metadata : mapping
        The merged metadata: a per-file list where the files differ.
    ranks : numpy.ndarray, optional
        The rank ids of the profile's rows (``None``: no rank level).

    Examples
    --------
    >>> check_one_run(["r0.cali", "r1.cali"], {"mpi.world.size": 2}, np.array([0, 1, 1]))
    >>> check_one_run(["a.cali", "b.cali"], {"mpi.world.size": [27, 64]}, np.array([0, 1]))
    Traceback (most recent call last):
    ...
    graphframe.io.runs.NotOneRunError: 2 files (a.cali, b.cali): the files are not the ranks of one run: \
their mpi.world.size differ (27, 64) (expected the per-rank files of one run; read each file \
as its own profile (graphframe.read(file)), or all of them as the runs of an ensemble \
(graphframe.Ensemble.read(files)))
    """
    source = list_name(path)
    for key in SAME_KEYS:
        values = _per_file(metadata.get(key))
        if len(_distinct(values)) > 1:
            raise NotOneRunError(source, f"the files are not the ranks of one run: their {key} differ "
                            f"({_show(values)})",
                            expected=f"the per-rank files of one run; {ADVICE}")
    for key in LAUNCH_KEYS:
        times = [float(v) for v in _per_file(metadata.get(key)) if _number(v)]
        if times and max(times) - min(times) > LAUNCH_TOLERANCE:
            raise NotOneRunError(source, f"the files are not the ranks of one run: their {key} "
                            f"values are {max(times) - min(times):.0f} s apart "
                            f"({_show(_per_file(metadata.get(key)))})",
                            expected=f"the per-rank files of one run, launched together; "
                                     f"{ADVICE}")
    world = metadata.get(WORLD_SIZE)
    if isinstance(world, str) and world.strip().isdigit():
        world = int(world)
    if ranks is not None and len(ranks) and _number(world):
        unique = np.unique(np.asarray(ranks))
        outside = unique[(unique < 0) | (unique >= int(world))]
        if len(outside):
            raise NotOneRunError(source, f"rank {outside[0]} is outside the run's {WORLD_SIZE} "
                            f"{int(world)} ({len(unique)} ranks read: "
                            f"{_show(unique.tolist())})",
                            expected=f"rank ids 0..{int(world) - 1} of one run; {ADVICE}")


def several_files(path: Any) -> bool:
    """True when ``path`` names several files: a list, a tuple or a directory.

    Examples
    --------
    >>> several_files(["a.cali"]), several_files(".")
    (True, True)
    """
    if isinstance(path, (list, tuple)):
        return True
    try:
        return os.path.isdir(os.fspath(path))
    except TypeError:
        return False


def _per_file(value: Any) -> List[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _distinct(values: Sequence[Any]) -> List[Any]:
    out: List[Any] = []
    for v in values:
        if v is not None and v not in out:
            out.append(v)
    return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and \
        not isinstance(value, bool) and value == value


def _show(values: Sequence[Any], limit: int = 6) -> str:
    shown = ", ".join(str(v) for v in list(values)[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def list_name(path: Any) -> Any:
    """``path`` for an error: a list as its count and first names."""
    if isinstance(path, (list, tuple)):
        names = [os.path.basename(os.fspath(p)) if isinstance(p, (str, os.PathLike)) else str(p)
                 for p in path]
        return f"{len(names)} files ({_show(names, 3)})"
    return path
