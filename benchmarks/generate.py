"""Large, realistic synthetic profiles for benchmarks and tests.

:func:`generate` returns a :class:`graphframe_readers.RawProfile` built with
:class:`graphframe_readers.ProfileBuilder`'s bulk (numpy) path: no per-node Python
loop, so 1,000,000 nodes x 16 ranks take seconds. The profile models an MPI
application (see :mod:`benchmarks.shape` for the tree):

* frames ``{"name", "type"}`` (``type`` is ``function`` or ``loop``) and
  per-node dataframe columns ``name``, ``file``, ``line``;
* exclusive ``time`` in seconds, heavily skewed: leaves carry most of it,
  the kernels at the bottom of the deep chains are hot, and a few random
  nodes are hot too;
* per-rank variation: a load-imbalance factor per rank (one straggler),
  MPI calls waiting longer on the fast ranks, and a little noise on every
  (node, rank[, thread]) value; every node has a row for every rank.

``variant=0.1`` gives the same program (same seed) with about 10 % of its
call paths different (small subtrees removed and others added) and its
times changed, for diffing. Everything is deterministic for a given seed.

Command line (writers are found by module name in ``graphframe_readers.testing.writers``)::

    python -m benchmarks.generate --nodes 10000 --ranks 16 --format literal --out DIR
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from graphframe_readers import ProfileBuilder, RawProfile
from graphframe_readers.testing import writers

from . import shape
from .vocabulary import Vocabulary, make_vocabulary

#: Random streams (mixed with the seed) so the variant shares the base's tree and times.
_TREE, _TIMES, _VARY, _NOISE, _MACHINE = 0, 1, 2, 3, 4


def generate(nodes: int = 10_000, ranks: Optional[int] = 16, threads: Optional[int] = None,
             *, seed: int = 0, variant: float = 0.0, depth: int = 64,
             chains: Optional[int] = None) -> RawProfile:
    """A synthetic profile of ``nodes`` call-path nodes on ``ranks`` x ``threads``.

    Parameters
    ----------
    nodes : int
        Number of nodes of the base profile (a variant differs by a few %).
    ranks : int or None
        MPI ranks; ``None`` gives a single-process profile (index ``node``).
    threads : int, optional
        Threads per rank; adds a ``thread`` index level.
    seed : int
        Same seed, same tables.
    variant : float
        0 for the base profile; ``f > 0`` for the same program with about a
        fraction ``f`` of its paths different (``f / 2`` of the nodes removed
        as small subtrees, as many added) and its times changed.
    depth : int
        Depth of the deep chains (the profile's maximum depth).
    chains : int, optional
        Number of deep chains (default: 1 per 2,500 nodes, 1 to 8).

    Examples
    --------
    >>> raw = generate(500, ranks=4, seed=1)
    >>> raw.num_nodes, len(raw.metrics), raw.index_levels
    (500, 2000, ('rank',))
    >>> list(raw.nodes.columns), list(raw.node_columns.columns)
    (['node', 'parent', 'name', 'type'], ['name', 'file', 'line'])
    >>> generate(500, ranks=4, seed=1).metrics.equals(raw.metrics)
    True
    """
    nodes = int(nodes)
    vocab = make_vocabulary(max(256, nodes // 8), np.random.default_rng([seed, _TREE]))
    tree = shape.grow(nodes, vocab, np.random.default_rng([seed, _TREE]), depth, chains)
    times = exclusive_times(tree, vocab, np.random.default_rng([seed, _TIMES]))
    if variant:
        vrng = np.random.default_rng([seed, _VARY, int(round(variant * 1e6))])
        tree, old = shape.vary(tree, vocab, float(variant), vrng)
        times = changed_times(tree, times, old, vrng)
    levels = (("rank",) if ranks is not None else ()) + (("thread",) if threads else ())
    builder = ProfileBuilder(None, index_levels=levels)
    parent_ids = np.where(tree.parent >= 0, tree.ids[np.maximum(tree.parent, 0)], -1)
    builder.add_nodes(parent_ids, {"name": vocab.names[tree.code], "type": vocab.types[tree.code]},
                      columns={"name": vocab.names[tree.code], "file": vocab.files[tree.code],
                               "line": vocab.lines[tree.code]},
                      node_ids=tree.ids)
    noise = np.random.default_rng([seed, _NOISE, int(round(variant * 1e6))])
    straggler = int(np.random.default_rng([seed, _MACHINE]).integers(ranks or 1))
    rows = per_process_times(tree, vocab, times, ranks, threads, straggler, noise)
    builder.add_rows(rows.pop("node"), {"time": rows.pop("time")}, **rows)
    return builder.build(
        exc_metrics=["time"], default_metric="time", columns=["time", "name", "file", "line"],
        metadata={"format": "generated", "generator": {
            "nodes": nodes, "ranks": ranks, "threads": threads, "seed": seed,
            "variant": variant, "depth": depth, "chains": chains}})


def exclusive_times(tree: shape.Tree, vocab: Vocabulary, rng: np.random.Generator) -> np.ndarray:
    """Skewed per-node exclusive seconds (log-normal; leaves and chain kernels hot)."""
    n = len(tree)
    t = rng.lognormal(np.log(2e-3), 1.8, n)
    t[tree.has_children()] *= 0.1
    total = t.sum()
    if tree.hot.any():
        t[tree.hot] = 0.4 * total / tree.hot.sum() * rng.uniform(0.5, 1.5, int(tree.hot.sum()))
    spikes = rng.random(n) < 5e-4
    t[spikes] *= 30.0
    return t


def changed_times(tree: shape.Tree, base: np.ndarray, old: np.ndarray,
                  rng: np.random.Generator) -> np.ndarray:
    """Times of a variant: kept nodes drift a little, 5 % change a lot, new nodes are fresh."""
    kept = old >= 0
    t = np.empty(len(tree))
    t[kept] = base[old[kept]] * rng.lognormal(0.0, 0.05, int(kept.sum()))
    changed = kept & (rng.random(len(tree)) < 0.05)
    t[changed] *= rng.lognormal(0.0, 0.7, int(changed.sum()))
    t[~kept] = rng.lognormal(np.log(2e-3), 1.8, int((~kept).sum()))
    return t


def per_process_times(tree: shape.Tree, vocab: Vocabulary, times: np.ndarray,
                      ranks: Optional[int], threads: Optional[int], straggler: int,
                      rng: np.random.Generator) -> Dict[str, np.ndarray]:
    """Metric rows (node-major): ``node``, level arrays and ``time``.

    Rank ``r`` runs ``1 + 0.3 (r / (R-1))**2`` times slower (``straggler``
    0.5 more); MPI calls wait the difference to the slowest rank; threads
    after thread 0 do 80 % of its work; every value gets 8 % noise.
    """
    n = len(tree)
    r = ranks or 1
    th = threads or 1
    pattern = (np.arange(r) / max(r - 1, 1)) ** 2
    rank_factor = 1.0 + 0.3 * pattern
    rank_factor[straggler] += 0.5
    wait_factor = rank_factor.max() - rank_factor + 0.1
    thread_factor = np.where(np.arange(th) == 0, 1.0, 0.8)
    is_mpi = tree.code < vocab.n_mpi
    factor = np.where(is_mpi[:, None], wait_factor[None, :], rank_factor[None, :])
    values = (times[:, None, None] * factor[:, :, None] * thread_factor[None, None, :])
    values *= rng.lognormal(0.0, 0.08, values.shape)
    rows: Dict[str, np.ndarray] = {"node": np.repeat(tree.ids, r * th)}
    if ranks is not None:
        rows["rank"] = np.tile(np.repeat(np.arange(r, dtype=np.int64), th), n)
    if threads:
        rows["thread"] = np.tile(np.arange(th, dtype=np.int64), n * r)
    rows["time"] = values.ravel()
    return rows


# ------------------------------------------------------------------ writers
def writer_formats() -> List[str]:
    """Formats with a writer: modules ``graphframe_readers.testing.writers.<fmt>`` defining ``write_<fmt>``.

    Examples
    --------
    >>> "literal" in writer_formats()
    True
    """
    found = []
    for info in pkgutil.iter_modules(writers.__path__):
        try:
            module = importlib.import_module(f"{writers.__name__}.{info.name}")
        except ImportError:  # a writer whose optional dependency is missing
            continue
        if callable(getattr(module, f"write_{info.name}", None)):
            found.append(info.name.replace("_", "-"))
    return sorted(found)


def writer(fmt: str) -> Callable[[RawProfile, Path], object]:
    """The ``write_<fmt>(raw, path)`` function of format ``fmt``."""
    mod_name = fmt.replace("-", "_")
    try:
        module = importlib.import_module(f"graphframe_readers.testing.writers.{mod_name}")
    except ModuleNotFoundError as exc:
        raise ValueError(f"no writer for format {fmt!r}; known: "
                         f"{', '.join(writer_formats())}") from exc
    return getattr(module, f"write_{mod_name}")


def output_path(out: Path, fmt: str, stem: str) -> Path:
    """``out/<stem><SUFFIX>`` where the writer module may define ``SUFFIX``."""
    module = importlib.import_module(f"graphframe_readers.testing.writers.{fmt.replace('-', '_')}")
    return Path(out) / f"{stem}{getattr(module, 'SUFFIX', '')}"


def stem_for(nodes: int, ranks: Optional[int], threads: Optional[int], seed: int,
             variant: float) -> str:
    """File stem naming the generator parameters, e.g. ``gen-n10000-r16-s0``."""
    parts = [f"gen-n{nodes}"]
    if ranks is not None:
        parts.append(f"r{ranks}")
    if threads is not None:
        parts.append(f"t{threads}")
    parts.append(f"s{seed}")
    if variant:
        parts.append(f"v{variant:g}")
    return "-".join(parts)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: generate profiles and write them with the chosen writers."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.generate", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", type=lambda s: int(float(s)), default=10_000)
    p.add_argument("--ranks", type=int, default=16, help="0 for no rank level")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--depth", type=int, default=64)
    p.add_argument("--variant", type=float, default=0.0,
                   help="also write a variant with this fraction of paths changed (e.g. 0.1)")
    p.add_argument("--format", default="literal",
                   help=f"comma-separated formats or 'all' (have: {', '.join(writer_formats())})")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    fmts = writer_formats() if args.format == "all" else args.format.split(",")
    try:
        writers_ = {f: writer(f) for f in fmts}
    except ValueError as exc:
        p.error(str(exc))
    ranks = args.ranks or None
    args.out.mkdir(parents=True, exist_ok=True)
    for variant in ([0.0, args.variant] if args.variant else [0.0]):
        raw = generate(args.nodes, ranks, args.threads, seed=args.seed, variant=variant,
                       depth=args.depth)
        stem = stem_for(args.nodes, ranks, args.threads, args.seed, variant)
        for fmt, write in writers_.items():
            path = output_path(args.out, fmt, stem)
            write(raw, path)
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
