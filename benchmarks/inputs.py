"""Benchmark inputs: built on first use, named, and cached on disk when they are files.

A case names what it needs (``needs=("gf",)``); the runner builds those
inputs before the clock starts. Each input is one function registered with
:func:`input_builder`, so a new kind of input (a squashed GraphFrame, a
HPCToolkit database...) is one function. Files are written by the writers
in :mod:`graphframe_readers.testing.writers` (``needs=("path:literal",)``) into a cache
directory keyed by the generator parameters and a hash of the generator and
writer sources, so an edited generator never serves stale files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Optional

import pandas as pd

from graphframe import GraphFrame
from graphframe_readers.testing import writers

from . import generate as gen
from .hatchet_adapter import to_hatchet

_BUILDERS: Dict[str, Callable[["Inputs"], Any]] = {}
_SOURCES = ("generate.py", "shape.py", "vocabulary.py")


def input_builder(name: str) -> Callable[[Callable[["Inputs"], Any]], Callable[["Inputs"], Any]]:
    """Register ``fn(inputs) -> value`` as the input called ``name``."""
    def register(fn: Callable[["Inputs"], Any]) -> Callable[["Inputs"], Any]:
        _BUILDERS[name] = fn
        return fn
    return register


def input_names() -> list:
    """Names of the registered inputs."""
    return sorted(_BUILDERS)


def default_cache_dir() -> Path:
    """``$GRAPHFRAME_BENCH_CACHE`` or ``<tmp>/graphframe-bench``."""
    return Path(os.environ.get("GRAPHFRAME_BENCH_CACHE",
                               Path(tempfile.gettempdir()) / "graphframe-bench"))


class Inputs:
    """The inputs of one benchmark size; attributes are built on first access.

    Examples
    --------
    >>> inp = Inputs(200, ranks=2)
    >>> inp.gf.graph.num_nodes, "gf" in inp.built
    (200, True)
    """

    def __init__(self, nodes: int, ranks: Optional[int] = 16, threads: Optional[int] = None,
                 seed: int = 0, variant: float = 0.1, cache_dir: Optional[Path] = None) -> None:
        self.nodes = int(nodes)
        self.ranks = ranks
        self.threads = threads
        self.seed = seed
        self.variant = variant
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.built: Dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in _BUILDERS:
            raise AttributeError(f"no benchmark input named {name!r}; known: "
                                 f"{', '.join(input_names())}")
        if name not in self.built:
            self.built[name] = _BUILDERS[name](self)
        return self.built[name]

    def prepare(self, names: Iterable[str]) -> None:
        """Build every named input (``path:<format>`` writes a file)."""
        for name in names:
            if name.startswith("path:"):
                self.path(name[5:])
            elif name.startswith("variant_path:"):
                self.path(name[13:], variant=True)
            else:
                getattr(self, name)

    def drop(self, names: Iterable[str]) -> None:
        """Forget built inputs so the next access builds them afresh."""
        for name in names:
            self.built.pop(name, None)

    def generate(self, variant: bool = False) -> Any:
        """A new RawProfile for this size (the variant when asked)."""
        return gen.generate(self.nodes, self.ranks, self.threads, seed=self.seed,
                            variant=self.variant if variant else 0.0)

    def path(self, fmt: str, variant: bool = False) -> Path:
        """The profile written in ``fmt`` (written once, then reused from the cache)."""
        stem = gen.stem_for(self.nodes, self.ranks, self.threads, self.seed,
                            self.variant if variant else 0.0)
        folder = self.cache_dir / _source_hash(fmt)
        target = gen.output_path(folder, fmt, stem)
        if not target.exists():
            folder.mkdir(parents=True, exist_ok=True)
            key = "raw_variant" if variant else "raw"
            raw = self.built[key] if key in self.built else self.generate(variant)
            partial = target.with_name(f"{target.name}.partial-{os.getpid()}")
            gen.writer(fmt)(raw, partial)
            try:  # atomic: a concurrent runner never reads a half-written profile
                os.replace(partial, target)
            except OSError:  # another process finished first (a directory format)
                if not target.exists():
                    raise
                shutil.rmtree(partial, ignore_errors=True)
        return target


def _source_hash(fmt: str) -> str:
    here = Path(__file__).parent
    writer_file = Path(writers.__file__).parent / f"{fmt.replace('-', '_')}.py"
    files = [here / s for s in _SOURCES] + [writer_file]
    h = hashlib.sha256()
    for f in files:
        if f.exists():
            h.update(f.read_bytes())
    return f"{fmt}-{h.hexdigest()[:10]}"


# ------------------------------------------------------------- the inputs
@input_builder("raw")
def _raw(inp: Inputs) -> Any:
    return inp.generate()


@input_builder("raw_variant")
def _raw_variant(inp: Inputs) -> Any:
    return inp.generate(variant=True)


@input_builder("gf")
def _gf(inp: Inputs) -> Any:
    """GraphFrame with exclusive ``time`` only."""
    return GraphFrame.from_raw(inp.raw)


@input_builder("gf_inc")
def _gf_inc(inp: Inputs) -> Any:
    """GraphFrame with ``time`` and ``time (inc)``."""
    return inp.gf.update_inclusive_columns(inplace=False)


@input_builder("gf_inc_dag")
def _gf_inc_dag(inp: Inputs) -> Any:
    """``gf_inc``'s profile plus ONE extra edge (a call graph: a node with two parents)."""
    return GraphFrame.from_raw(with_extra_edge(inp.raw)).update_inclusive_columns(inplace=False)


def with_extra_edge(raw: Any) -> Any:
    """``raw`` with one more edge: its second node also calls the node in the middle.

    Examples
    --------
    >>> raw = gen.generate(100, ranks=None, seed=0)
    >>> g = GraphFrame.from_raw(with_extra_edge(raw)).graph
    >>> g.is_forest, g.num_edges - (g.num_nodes - len(g.root_ids))
    (False, 1)
    """
    ids = raw.nodes["node"].to_numpy()
    edge = pd.DataFrame({"parent": [int(ids[1])], "child": [int(ids[len(ids) // 2])]})
    return dataclasses.replace(raw, edges=edge)


@input_builder("gf_variant")
def _gf_variant(inp: Inputs) -> Any:
    return GraphFrame.from_raw(inp.raw_variant).update_inclusive_columns(inplace=False)


@input_builder("hatchet_gf")
def _hatchet_gf(inp: Inputs) -> Any:
    """Hatchet GraphFrame of the same data (exclusive ``time`` only)."""
    return to_hatchet(inp.raw)


@input_builder("hatchet_gf_inc")
def _hatchet_gf_inc(inp: Inputs) -> Any:
    hgf = to_hatchet(inp.raw)
    hgf.update_inclusive_columns()
    return hgf


@input_builder("hatchet_gf_inc_dag")
def _hatchet_gf_inc_dag(inp: Inputs) -> Any:
    hgf = to_hatchet(with_extra_edge(inp.raw))
    hgf.update_inclusive_columns()
    return hgf


@input_builder("hatchet_gf_variant")
def _hatchet_gf_variant(inp: Inputs) -> Any:
    hgf = to_hatchet(inp.raw_variant)
    hgf.update_inclusive_columns()
    return hgf
