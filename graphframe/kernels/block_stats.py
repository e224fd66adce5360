"""Statistics of every row of a (group x sample) block, NaN meaning "no value".

One call computes the requested statistics of all rows of a float64 matrix
with whole-array numpy operations. Rows without a missing value (nearly all
of them in profiles) take the fast path: plain ``sum``/``max``/``argmax``
along the row and one ``np.sort`` for medians and percentiles (for rows of
tens of values numpy's SIMD sort is several times faster than the
introselect ``np.median`` uses). Rows that contain NaN (found from the row
sums, at no extra pass) are then recomputed on their own, NaN skipped, so
the result matches ``np.nan*`` functions without their warnings:
everything runs under ``np.errstate(all="ignore")`` and no function that
warns on all-NaN rows is called.

Definitions (``n`` = the number of values a row has, NaN excluded):

* ``count`` = n; ``sum``, ``mean``, ``min``, ``max``, ``median`` as numpy's,
  NaN when n = 0 (never 0: a row without values has no total);
* ``var``/``std`` with ``ddof`` (``sum((x - mean)**2) / (n - ddof)``), NaN
  when ``n <= ddof``;
* ``imbalance`` = max / mean, the load-imbalance factor (1 = balanced;
  ``k`` = the slowest sample took k times the average), NaN when the mean
  is 0 or there is no value;
* ``argmax``/``argmin``: position of the first (lowest) sample holding the
  maximum/minimum, -1 when n = 0;
* percentiles: numpy's default ("linear") definition over the n values;
* ``top``: positions of the k largest values, largest first, ties by lower
  position, -1 past the n-th.
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence

import numpy as np

#: Statistics :func:`block_stats` knows.
STATS = ("count", "sum", "min", "max", "mean", "median", "std", "var", "imbalance",
         "argmax", "argmin")
#: Those that are sample positions (-1: none) rather than values.
POSITION_STATS = ("argmax", "argmin")

INT = np.int64
#: Medians and percentiles sort each group of rows with the same number of values on its
#: own (packed, NaN dropped) when there are at most this many groups.
MAX_SORT_GROUPS = 32


def block_stats(block: np.ndarray, stats: Sequence[str], percentiles: Sequence[float] = (),
                top: int = 0, ddof: int = 0) -> Dict[str, np.ndarray]:
    """Statistics of each row of ``block`` (NaN = no value).

    Parameters
    ----------
    block : numpy.ndarray
        ``(groups, samples)`` float64 matrix; it is never written to.
    stats : sequence of str
        Names from :data:`STATS`.
    percentiles : sequence of float
        Percentiles in [0, 100]; returned as ``"percentiles"``, one column each.
    top : int
        Return ``"top"``: the positions of the ``top`` largest values per row.
    ddof : int
        Delta degrees of freedom of ``var`` and ``std``.

    Returns
    -------
    dict
        Stat name -> array of one value per row (int64 positions for
        ``argmax``/``argmin``), plus ``"percentiles"`` and ``"top"``
        ``(groups, k)`` arrays when asked for.

    Examples
    --------
    >>> b = np.array([[1.0, 3.0, 2.0, 2.0], [4.0, np.nan, np.nan, 0.0],
    ...               [np.nan, np.nan, np.nan, np.nan]])
    >>> out = block_stats(b, ["count", "sum", "mean", "max", "imbalance", "argmax", "median"],
    ...                   top=2)
    >>> out["count"].tolist(), out["sum"].tolist(), out["imbalance"].tolist()
    ([4, 2, 0], [8.0, 4.0, nan], [1.5, 2.0, nan])
    >>> out["argmax"].tolist(), out["median"].tolist(), out["top"].tolist()
    ([1, 0, -1], [2.0, 2.0, nan], [[1, 2], [0, 3], [-1, -1]])
    """
    block = np.asarray(block, dtype=np.float64)
    if block.ndim != 2:
        raise ValueError(f"block_stats needs a 2-D block, not {block.ndim}-D")
    with np.errstate(all="ignore"):
        return _Rows(block, ddof).compute(stats, percentiles, int(top))


class _Rows:
    """Shared intermediate results (sum, count, max, the sorted rows...)."""

    def __init__(self, block: np.ndarray, ddof: int) -> None:
        self.block = block
        self.g, self.s = block.shape
        self.ddof = int(ddof)
        self.total = block.sum(axis=1) if self.s else np.full(self.g, np.nan)
        # rows holding NaN (or both infinities): recomputed on their own
        self.holes = np.flatnonzero(np.isnan(self.total)) if self.s else np.arange(self.g)
        self.count = np.full(self.g, self.s, dtype=INT)
        if len(self.holes) and self.s:
            if 2 * len(self.holes) > self.g:   # mostly holes: treat every row as one (no copy)
                self.holes = np.arange(self.g)
                sub = block
            else:
                sub = block[self.holes]
            self.sub = sub
            self.absent = np.isnan(sub)
            self.present = ~self.absent
            self.count[self.holes] = self.present.view(np.uint8).sum(axis=1, dtype=INT)
            filled = sub.copy()   # NaN -> 0, then numpy's own (pairwise) row sums
            np.copyto(filled, 0.0, where=self.absent)
            sums = filled.sum(axis=1)
            self.total[self.holes] = np.where(self.count[self.holes] > 0, sums, np.nan)
        elif not self.s:
            self.count[:] = 0
        self._cache: Dict[str, np.ndarray] = {}

    def compute(self, stats: Sequence[str], percentiles: Sequence[float],
                top: int) -> Dict[str, np.ndarray]:
        out = {name: getattr(self, "_" + name)() for name in stats}
        if len(percentiles):
            out["percentiles"] = np.stack(
                [self._quantile(float(p) / 100.0) for p in percentiles], axis=1)
        if top:
            out["top"] = self._top(top)
        return out

    def _cached(self, key: str, make) -> np.ndarray:
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = make()
        return found

    # ------------------------------------------------------------ values
    def _count(self) -> np.ndarray:
        return self.count.copy()

    def _sum(self) -> np.ndarray:
        return self.total.copy()

    def _mean(self) -> np.ndarray:
        return self._cached("mean", lambda: self.total / self.count)

    def _max(self) -> np.ndarray:
        return self._cached("max", lambda: self._extreme("argmax", np.fmax))

    def _min(self) -> np.ndarray:
        return self._cached("min", lambda: self._extreme("argmin", np.fmin))

    def _extreme(self, where: str, skip_nan) -> np.ndarray:
        """The value at the (plain) argmax/argmin: one pass instead of max + argmax."""
        if not self.s:
            return np.full(self.g, np.nan)
        pos = self._plain_position(where)
        out = np.take_along_axis(self.block, pos[:, None], axis=1)[:, 0]
        if len(self.holes):
            out[self.holes] = skip_nan.reduce(self.sub, axis=1)
        return out

    def _plain_position(self, where: str) -> np.ndarray:
        """``block.argmax(axis=1)`` (or argmin): right for every row without NaN."""
        return self._cached("plain_" + where,
                            lambda: getattr(self.block, where)(axis=1).astype(INT, copy=False))

    def _imbalance(self) -> np.ndarray:
        mean = self._mean()
        return np.divide(self._max(), mean, out=np.full(self.g, np.nan), where=mean != 0)

    def _var(self) -> np.ndarray:
        def make() -> np.ndarray:
            mean = self._mean()
            every_row = len(self.holes) == self.g
            if self.s and not every_row:
                dev = self.block - mean[:, None]
                np.multiply(dev, dev, out=dev)
                squares = dev.sum(axis=1)
            else:
                squares = np.full(self.g, np.nan)
            if len(self.holes) and self.s:
                dev = self.sub - mean[self.holes, None]
                np.copyto(dev, 0.0, where=self.absent)
                np.multiply(dev, dev, out=dev)
                squares[self.holes] = dev.sum(axis=1)
            dof = self.count - self.ddof
            return np.divide(squares, dof, out=np.full(self.g, np.nan), where=dof > 0)
        return self._cached("var", make)

    def _std(self) -> np.ndarray:
        return np.sqrt(self._var())

    # --------------------------------------------------------- positions
    def _argmax(self) -> np.ndarray:
        return self._position("argmax", self._max())

    def _argmin(self) -> np.ndarray:
        return self._position("argmin", self._min())

    def _position(self, where: str, extreme: np.ndarray) -> np.ndarray:
        if not self.s:
            return np.full(self.g, -1, dtype=INT)
        out = self._plain_position(where).copy()
        if len(self.holes):
            hit = self.sub == extreme[self.holes, None]
            pos = hit.argmax(axis=1).astype(INT)
            pos[self.count[self.holes] == 0] = -1
            out[self.holes] = pos
        return out

    def _top(self, k: int) -> np.ndarray:
        out = np.full((self.g, k), -1, dtype=INT)
        kk = min(k, self.s)
        if not kk:
            return out
        # rows holding NaN or -inf: an exact stable sort of the negated values
        odd = np.zeros(self.g, dtype=bool)
        odd[self.holes] = True
        odd |= self._min() == -np.inf
        regular = np.flatnonzero(~odd)
        if len(regular):
            # k rounds of argmax (first of equal values), each pick replaced by -inf
            work = self.block[regular] if len(regular) < self.g else self.block.copy()
            rows = np.arange(len(regular))
            picks = np.empty((len(regular), kk), dtype=INT)
            for i in range(kk):
                p = work.argmax(axis=1)
                picks[:, i] = p
                work[rows, p] = -np.inf
            out[regular, :kk] = picks
        irregular = np.flatnonzero(odd)
        if len(irregular):
            order = np.argsort(-self.block[irregular], axis=1, kind="stable")[:, :kk]
            order = order.astype(INT)
            order[np.arange(kk)[None, :] >= self.count[irregular, None]] = -1
            out[irregular, :kk] = order
        return out

    # -------------------------------------------------------- quantiles
    def _sorted(self) -> np.ndarray:
        return self._cached("sorted", lambda: np.sort(self.block, axis=1))  # NaN last

    def _by_count(self):
        """Rows grouped by their number of values, each group's values packed (NaN dropped)
        and sorted: ``[(rows, n, sorted (rows x n))]``; None when the counts are too varied
        (more than :data:`MAX_SORT_GROUPS` of them), where one sort of the block is used.

        Sorting only the values a row has is what makes medians and percentiles of sparse
        ensembles (nodes present in a fraction of the profiles) cheap."""
        def make():
            if not len(self.holes):
                return [(slice(None), self.s, self._sorted())]
            distinct, inverse = np.unique(self.count, return_inverse=True)
            if len(distinct) > MAX_SORT_GROUPS:
                return None
            found = []
            for k, n in enumerate(distinct.tolist()):   # a few distinct counts, not nodes
                if n == 0:
                    continue
                rows = np.flatnonzero(inverse == k)
                part = self.block[rows]
                if n < self.s:
                    part = part[~np.isnan(part)].reshape(len(rows), n)
                part.sort(axis=1)
                found.append((rows, n, part))
            return found
        return self._cached("by_count", make)

    def _from_groups(self, pick) -> Optional[np.ndarray]:
        """``pick(sorted, n)`` over the count groups into one array (NaN for no value)."""
        groups = self._by_count()
        if groups is None:
            return None
        out = np.full(self.g, np.nan)
        for rows, n, srt in groups:
            out[rows] = pick(srt, n)
        return out

    def _median(self) -> np.ndarray:
        """np.median's value: the middle one, or the mean of the two middle ones."""
        if not self.s:
            return np.full(self.g, np.nan)
        grouped = self._from_groups(
            lambda srt, n: srt[:, (n - 1) // 2] if n % 2 else
            (srt[:, (n - 1) // 2] + srt[:, n // 2]) / 2.0)
        if grouped is not None:
            return grouped
        srt = self._sorted()
        lo, hi = (self.s - 1) // 2, self.s // 2
        out = srt[:, lo] if lo == hi else (srt[:, lo] + srt[:, hi]) / 2.0
        if len(self.holes):
            n = self.count[self.holes]
            lo_i, hi_i = np.maximum((n - 1) // 2, 0), n // 2
            a = srt[self.holes, lo_i]
            b = srt[self.holes, np.minimum(hi_i, self.s - 1)]
            value = np.where(lo_i == hi_i, a, (a + b) / 2.0)
            out = out.copy() if out.base is not None else out
            out[self.holes] = np.where(n > 0, value, np.nan)
        return out

    def _quantile(self, q: float) -> np.ndarray:
        """numpy's "linear" percentile at fraction ``q`` of each row's values."""
        if not self.s:
            return np.full(self.g, np.nan)
        def pick(srt: np.ndarray, n: int) -> np.ndarray:
            lo, hi, gamma = _neighbours(np.float64(n), q)
            return _lerp(srt[:, int(lo)], srt[:, int(hi)], gamma)
        grouped = self._from_groups(pick)
        if grouped is not None:
            return grouped
        srt = self._sorted()
        lo, hi, gamma = _neighbours(np.float64(self.s), q)
        out = _lerp(srt[:, int(lo)], srt[:, int(hi)], gamma)
        if len(self.holes):
            n = self.count[self.holes]
            lo_i, hi_i, gamma_i = _neighbours(n.astype(np.float64), q)
            a = srt[self.holes, np.clip(lo_i, 0, self.s - 1)]
            b = srt[self.holes, np.clip(hi_i, 0, self.s - 1)]
            out[self.holes] = np.where(n > 0, _lerp(a, b, gamma_i), np.nan)
        return out


def _neighbours(n, q: float):
    """Indexes below/above the virtual index ``(n - 1) q`` and the weight between them."""
    virtual = (n - 1) * q
    lo = np.floor(virtual)
    hi = lo + 1
    last = virtual >= n - 1
    lo = np.where(last, n - 1, lo)
    hi = np.where(last, n - 1, hi)
    gamma = virtual - np.floor(virtual)
    return lo.astype(INT), hi.astype(INT), gamma


def _lerp(a: np.ndarray, b: np.ndarray, t) -> np.ndarray:
    """``a + (b - a) t``, from the nearer end (numpy's formula, so results agree)."""
    diff = b - a
    t = np.broadcast_to(np.asarray(t, dtype=np.float64), np.shape(diff))
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)
