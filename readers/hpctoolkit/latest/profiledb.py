"""HPCToolkit ``profile.db`` (format 4.x): sparse values per profile, decoded with numpy.

Profile 0 is the summary profile (statistics over all threads, by
``statMetricId``); every other profile is one application thread or GPU
stream (values by ``propMetricId``), identified by a tuple of
``(kind, logical id, physical id)``. A profile's values are
``nValues`` packed ``(u16 metric, f64 value)`` pairs grouped by context,
with ``nCtxs`` packed ``(u32 context, u64 first value)`` indices.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from .dbfile import DbFile

VALUE = np.dtype([("metric", "<u2"), ("value", "<f8")])
INDEX = np.dtype([("ctx", "<u4"), ("start", "<u8")])
IDENT = np.dtype([("kind", "u1"), ("pad", "u1"), ("flags", "<u2"), ("logical", "<u4"),
                  ("physical", "<u8")])


class ProfileInfo:
    """One profile's header (a plain class: a dataclass costs ~0.5 ms at import)."""

    __slots__ = ("n_values", "p_values", "n_ctxs", "p_ctx", "p_ident", "summary", "ident")

    def __init__(self, n_values: int, p_values: int, n_ctxs: int, p_ctx: int, p_ident: int,
                 summary: bool, ident: List[Tuple[int, int, int]]) -> None:
        self.n_values, self.p_values, self.n_ctxs, self.p_ctx = n_values, p_values, n_ctxs, p_ctx
        self.p_ident, self.summary = p_ident, summary
        self.ident = ident  # (kind, logical id, physical id)


class ProfileDb:
    """Profiles of ``profile.db`` and a decoder for one profile's values."""

    def __init__(self, path: Any) -> None:
        self.db = DbFile(path, b"prof", sections=2)
        base = self.db.sections[0][1]
        p_profiles, n_profiles, sz_profile = self.db.unpack("<QIB", base, "the profiles header")
        if sz_profile < 40:
            raise self.db.error(base + 12, f"profile record size {sz_profile}", "at least 40 bytes")
        self.profiles: List[ProfileInfo] = []
        for k in range(n_profiles):
            at = p_profiles + k * sz_profile
            n_val, p_val, n_ctx, p_ctx, p_id = self.db.unpack("<QQI4xQQ", at, f"profile {k}")
            flags = self.db.unpack("<I", at + 40, f"profile {k} flags")[0] if sz_profile >= 44 else 0
            ident = self._ident(p_id, k) if p_id else []
            self.profiles.append(ProfileInfo(n_val, p_val, n_ctx, p_ctx, p_id,
                                             bool(flags & 1) or k == 0, ident))

    def _ident(self, ptr: int, k: int) -> List[Tuple[int, int, int]]:
        (n_ids,) = self.db.unpack("<H", ptr, f"the identifier tuple of profile {k}")
        ids = self.db.array(IDENT, ptr + 8, n_ids, f"the identifiers of profile {k}")
        return [(int(i["kind"]), int(i["logical"]), int(i["physical"])) for i in ids]

    def context_ids(self, k: int) -> np.ndarray:
        """The contexts with values in profile ``k`` (its context index), as int64."""
        info = self.profiles[k]
        index = self.db.array(INDEX, info.p_ctx, info.n_ctxs, f"the context index of profile {k}")
        return index["ctx"].astype(np.int64)

    def values(self, k: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(ctx ids, metric ids, values)`` of profile ``k``, one entry per stored value."""
        info = self.profiles[k]
        vals = self.db.array(VALUE, info.p_values, info.n_values, f"the values of profile {k}")
        index = self.db.array(INDEX, info.p_ctx, info.n_ctxs, f"the context index of profile {k}")
        starts = index["start"].astype(np.int64)
        if len(starts) and (starts[0] != 0 or np.any(np.diff(starts) < 0)
                            or starts[-1] > info.n_values):
            raise self.db.error(info.p_ctx, f"profile {k}: context index start positions are not "
                                f"increasing within 0..{info.n_values}",
                                "sorted start indices into the values")
        counts = np.diff(np.append(starts, info.n_values))
        if len(starts) == 0 and info.n_values:
            raise self.db.error(info.p_ctx, f"profile {k} has {info.n_values} values but no "
                                "context index", "a context index")
        ctx = np.repeat(index["ctx"].astype(np.int64), counts)
        return ctx, vals["metric"].astype(np.int64), vals["value"].astype(np.float64)


def identity_table(pdb: ProfileDb, kinds: List[str]) -> List[Dict[str, int]]:
    """Per non-summary profile: ``{kind name (lower case): logical id}`` plus ``profile``."""
    out = []
    for k, info in enumerate(pdb.profiles):
        if info.summary:
            continue
        row = {"profile": k}
        for kind, logical, _physical in info.ident:
            name = kinds[kind].lower() if kind < len(kinds) else f"kind{kind}"
            row[name] = logical
        out.append(row)
    return out
