"""From many profiles to the parts of an Ensemble (the one place it happens)."""

from __future__ import annotations

import hashlib
import warnings
from typing import Any, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from graphframe_readers.errors import ReadError

from ..errors import ArgumentError
from ..render.units import UNITS_ATTR
from .compose import compose
from .metadata import UserMetadata, metadata_table, user_columns
from .reading import Outcome, check_policy, raise_for
from .sources import label
from .tables import ProfileTables, merged_declarations, merged_units

#: Columns of ``Ensemble.profiles``.
PROFILE_COLUMNS = ("path", "hash", "format", "options", "nodes", "rows")
#: Metadata columns every profile gets (Thicket's constructors leave them out, see
#: :func:`run_metadata`); a key the file's own metadata has keeps the file's value.
RUN_COLUMNS = ("path", "format", "ranks", "threads")
#: ``metadata.attrs`` key listing the :data:`RUN_COLUMNS` an Ensemble added.
RUN_COLUMNS_ATTR = "graphframe.run_columns"
#: Columns of ``Ensemble.errors``.
ERROR_COLUMNS = ("path", "error_type", "error")


class EnsembleReadWarning(UserWarning):
    """A profile could not be read and was skipped (``on_error="warn"``)."""


def parts_from_outcomes(outcomes: Sequence[Outcome], on_error: str,
                        user_metadata: UserMetadata = None) -> Dict[str, Any]:
    """Ensemble parts from read outcomes, applying the ``on_error`` policy."""
    check_policy(on_error)
    failed = [o for o in outcomes if o.tables is None]
    if failed and on_error == "raise":
        raise_for(failed[0])
    for o in failed:
        if on_error == "warn":
            warnings.warn(f"skipped {o.error}", EnsembleReadWarning, stacklevel=4)
    good = [o for o in outcomes if o.tables is not None]
    if not good:
        first = failed[0].error if failed else "no profile was given"
        raise ReadError(label(failed[0].member) if failed else "[]",
                        f"none of the {len(outcomes)} profiles could be read (first: {first})",
                        expected="at least one readable profile")
    infos = [o.info for o in good]
    parts = parts_from_tables([o.tables for o in good], [i["path"] for i in infos],
                              user_metadata, formats=[i.get("format") for i in infos])
    parts["profiles"] = profiles_table(infos)
    parts["errors"] = errors_table(failed)
    return parts


def parts_from_tables(tables: List[ProfileTables], paths: Sequence[str],
                      user_metadata: UserMetadata = None,
                      formats: Optional[Sequence[Any]] = None) -> Dict[str, Any]:
    """Graph, dataframe, metadata and declarations composed from per-profile tables.

    Every metadata row starts with :func:`run_metadata` (path, format, rank and
    thread counts); ``formats`` are the formats read (default: each profile's
    ``format`` metadata)."""
    rows = []
    for i, t in enumerate(tables):
        fmt = formats[i] if formats is not None else t.metadata.get("format")
        run = run_metadata(t, t.metadata.get("source", paths[i]), fmt)
        # the file's own keys keep their value and place (Thicket's column order)
        rows.append({**{k: v for k, v in run.items() if k not in t.metadata}, **t.metadata})
    user = user_columns(user_metadata, paths)  # resolved once (a callable is called once)
    metadata = metadata_table(rows, paths, user)
    metadata.attrs[RUN_COLUMNS_ATTR] = tuple(
        c for c in RUN_COLUMNS if c not in user and all(c not in t.metadata for t in tables))
    metadata.attrs[UNITS_ATTR] = merged_units(tables)
    composed = compose(tables)
    declared = merged_declarations(tables)
    return dict(graph=composed["graph"], dataframe=composed["dataframe"], metadata=metadata,
                **declared)


def run_metadata(t: ProfileTables, path: Any, fmt: Any) -> Dict[str, Any]:
    """``path``, ``format``, ``ranks`` and ``threads`` (distinct ranks and threads, 1 for a
    profile without that level, as ``plot scaling`` counts) of one profile.

    Examples
    --------
    >>> from graphframe import GraphFrame
    >>> from graphframe.ensemble.tables import tables_from_graphframe
    >>> t = tables_from_graphframe(GraphFrame.from_lists(("main", "solve")))
    >>> run_metadata(t, "run.json", "literal")
    {'path': 'run.json', 'format': 'literal', 'ranks': 1, 'threads': 1}
    """
    def count(level: str) -> int:
        values = t.levels.get(level)
        return 1 if values is None else int(len(np.unique(values)))

    return {"path": None if path is None else str(path), "format": fmt,
            "ranks": count("rank"), "threads": count("thread")}


def profiles_table(infos: Sequence[Dict[str, Any]]) -> pd.DataFrame:
    """One row per profile (see :data:`PROFILE_COLUMNS`)."""
    data = {c: [i.get(c) for i in infos] for c in PROFILE_COLUMNS}
    table = pd.DataFrame(data, index=pd.RangeIndex(len(infos), name="profile"))
    return table.astype({"nodes": np.int64, "rows": np.int64})


def errors_table(failed: Sequence[Outcome]) -> pd.DataFrame:
    """One row per profile that could not be read: path, exception type, message."""
    return pd.DataFrame({"path": [label(o.member) for o in failed],
                         "error_type": [o.error_type for o in failed],
                         "error": [o.error for o in failed]}, columns=list(ERROR_COLUMNS))


def check_fill(fill: Any, intersection: Any) -> None:
    """``fill`` and ``intersection`` are booleans."""
    for name, value in (("fill", fill), ("intersection", intersection)):
        if not isinstance(value, (bool, np.bool_)):
            raise ArgumentError(f"{name}={value!r}: use True or False")


def graphframe_infos(gfs: Sequence[Any], names: Sequence[str],
                     tables: Sequence[ProfileTables]) -> List[Dict[str, Any]]:
    """``profiles`` rows for GraphFrames (no file: the hash is of the content's tables)."""
    out = []
    for name, gf, t in zip(names, gfs, tables):
        out.append(dict(path=name, hash=_tables_hash(t), format=gf.metadata.get("format"),
                        options="{}", nodes=t.num_nodes, rows=t.num_rows))
    return out


def _tables_hash(t: ProfileTables) -> str:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(np.ascontiguousarray(t.parent).tobytes())
    for name in sorted(t.frames):
        coded = t.frames[name]
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(coded.codes).tobytes())
        digest.update(repr(coded.uniques.tolist()).encode())
    digest.update(np.ascontiguousarray(t.row_node).tobytes())
    for name in t.column_order:
        values = t.columns.get(name, t.node_columns.get(name))
        digest.update(str(name).encode())
        if hasattr(values, "codes"):
            digest.update(np.ascontiguousarray(values.codes).tobytes())
            digest.update(repr(values.uniques.tolist()).encode())
        elif values is not None:
            digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()


def optional_name(names: Optional[Sequence[Any]], i: int) -> str:
    """The display name of the i-th GraphFrame."""
    return str(names[i]) if names is not None else f"<graphframe {i}>"
