"""The benchmark cases: one registered function per operation and side.

A case times one operation of ours and, optionally, Hatchet's equivalent on
the same data::

    @case("tree", "render the text tree (colour off)", needs=["gf"])
    def tree(inp):
        return inp.gf.tree(color=False)

    @tree.hatchet(needs=["hatchet_gf"])
    def tree_hatchet(inp):
        return inp.hatchet_gf.tree()

``needs`` names inputs (see :mod:`benchmarks.inputs`) built before the clock
starts; ``fresh`` names inputs rebuilt (untimed) before every repeat, for
operations that change their input in place (Hatchet's ``unify``,
``update_inclusive_columns``). ``exponent`` is how the Hatchet side's time
grows with the size (1 linear, 2 quadratic); the runner uses it to skip a
size that would blow the time budget.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import graphframe

from .hatchet_adapter import to_hatchet

Run = Callable[[Any], Any]


@dataclass(frozen=True)
class Side:
    """One side (ours or Hatchet's) of a case."""

    run: Run
    needs: Tuple[str, ...] = ()
    fresh: Tuple[str, ...] = ()
    exponent: float = 1.0


@dataclass
class Case:
    """A named operation with our side and optionally Hatchet's."""

    name: str
    description: str
    ours: Side
    hatchet_side: Optional[Side] = None
    note: str = ""
    single_process: bool = False

    def hatchet(self, needs: Sequence[str] = (), fresh: Sequence[str] = (),
                exponent: float = 1.0) -> Callable[[Run], Run]:
        """Decorator registering Hatchet's side of this case."""
        def register(fn: Run) -> Run:
            self.hatchet_side = Side(fn, tuple(needs), tuple(fresh), exponent)
            return fn
        return register


CASES: Dict[str, Case] = {}


def case(name: str, description: str, needs: Sequence[str] = (), fresh: Sequence[str] = (),
         note: str = "", single_process: bool = False) -> Callable[[Run], Case]:
    """Decorator registering our side of a new case; returns the :class:`Case`.

    ``single_process`` marks cases whose input has one rank (a literal file).

    Examples
    --------
    >>> @case("example-len", "number of nodes", needs=["gf"])
    ... def example_len(inp):
    ...     return inp.gf.graph.num_nodes
    >>> CASES["example-len"].ours.needs
    ('gf',)
    >>> del CASES["example-len"]
    """
    def register(fn: Run) -> Case:
        if name in CASES:
            raise ValueError(f"benchmark case {name!r} is registered twice")
        c = Case(name, description, Side(fn, tuple(needs), tuple(fresh)), note=note,
                 single_process=single_process)
        CASES[name] = c
        return c
    return register


def hatchet_module() -> Any:
    """``hatchet`` (imported when a Hatchet side runs; it is optional)."""
    import hatchet

    return hatchet


# ------------------------------------------------------------------ cases
@case("build", "GraphFrame from the generated tables", needs=["raw"],
      note="Hatchet side: the benchmark's adapter (Node/Graph objects + indexed "
           "DataFrame), not a Hatchet reader")
def build(inp: Any) -> Any:
    return graphframe.GraphFrame.from_raw(inp.raw)


@build.hatchet(needs=["raw"])
def build_hatchet(inp: Any) -> Any:
    return to_hatchet(inp.raw)


@case("read-literal", "read a literal JSON file (one rank)", needs=["path:literal"],
      note="Hatchet side: json.load + GraphFrame.from_literal", single_process=True)
def read_literal(inp: Any) -> Any:
    return graphframe.read(inp.path("literal"))


@read_literal.hatchet(needs=["path:literal"])
def read_literal_hatchet(inp: Any) -> Any:
    with open(inp.path("literal"), encoding="utf-8") as f:
        return hatchet_module().GraphFrame.from_literal(json.load(f))


@case("tree", "tree() text for rank 0, colour off", needs=["gf"])
def tree(inp: Any) -> Any:
    return inp.gf.tree(color=False)


@tree.hatchet(needs=["hatchet_gf"], exponent=2.0)  # a visited *list*: quadratic
def tree_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf.tree()  # stdout is a pipe in the runner's child: no colour


@case("inclusive", "update_inclusive_columns (time -> time (inc))", needs=["gf"])
def inclusive(inp: Any) -> Any:
    return inp.gf.update_inclusive_columns(inplace=False)


@inclusive.hatchet(needs=["hatchet_gf"], fresh=["hatchet_gf"])
def inclusive_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf.update_inclusive_columns()  # in place


@case("to-literal", "to_literal() of rank 0", needs=["gf"])
def to_literal(inp: Any) -> Any:
    return inp.gf.to_literal()


@to_literal.hatchet(needs=["hatchet_gf"], exponent=1.5)  # measured 1e4 -> 3e4 nodes
def to_literal_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf.to_literal()


@case("copy", "copy() (sanity: both should be cheap)", needs=["gf"])
def copy(inp: Any) -> Any:
    return inp.gf.copy()


@copy.hatchet(needs=["hatchet_gf"])
def copy_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf.copy()


# ------------------------------------------------ graph operations (issue 3)
def _median_time(df: Any) -> float:
    return float(df["time"].median())


@case("filter-squash", "filter(mask: time > median) + squash + inclusive", needs=["gf_inc"],
      note="ours: a boolean mask; Hatchet: its row callable (default num_procs)")
def filter_squash(inp: Any) -> Any:
    df = inp.gf_inc.dataframe
    return inp.gf_inc.filter(df["time"] > _median_time(df))


@filter_squash.hatchet(needs=["hatchet_gf_inc"])
def filter_squash_hatchet(inp: Any) -> Any:
    t = _median_time(inp.hatchet_gf_inc.dataframe)
    return inp.hatchet_gf_inc.filter(lambda row: row["time"] > t)


@case("filter-squash-dag", "filter-squash on the same profile plus one extra edge",
      needs=["gf_inc_dag"],
      note="a call graph (one node with two parents): the same vectorised squash as a tree, "
           "then the congruence closure over the extra edges; compare with filter-squash")
def filter_squash_dag(inp: Any) -> Any:
    df = inp.gf_inc_dag.dataframe
    return inp.gf_inc_dag.filter(df["time"] > _median_time(df))


@filter_squash_dag.hatchet(needs=["hatchet_gf_inc_dag"])
def filter_squash_dag_hatchet(inp: Any) -> Any:
    t = _median_time(inp.hatchet_gf_inc_dag.dataframe)
    return inp.hatchet_gf_inc_dag.filter(lambda row: row["time"] > t)


@case("filter-callable", "filter(lambda row: row['time'] > median) + squash", needs=["gf_inc"],
      note="the same filter written as Hatchet's row callable")
def filter_callable(inp: Any) -> Any:
    t = _median_time(inp.gf_inc.dataframe)
    return inp.gf_inc.filter(lambda row: row["time"] > t)


@filter_callable.hatchet(needs=["hatchet_gf_inc"])
def filter_callable_hatchet(inp: Any) -> Any:
    t = _median_time(inp.hatchet_gf_inc.dataframe)
    return inp.hatchet_gf_inc.filter(lambda row: row["time"] > t, num_procs=1)


@case("unify", "unify with the ~10% different variant", needs=["gf_inc", "gf_variant"])
def unify(inp: Any) -> Any:
    return inp.gf_variant.unify(inp.gf_inc, inplace=False)


@unify.hatchet(needs=["hatchet_gf_inc", "hatchet_gf_variant"],
               fresh=["hatchet_gf_inc", "hatchet_gf_variant"])
def unify_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf_variant.unify(inp.hatchet_gf_inc)  # in place


@case("sub", "variant - base (unify + subtract)", needs=["gf_inc", "gf_variant"])
def sub(inp: Any) -> Any:
    return inp.gf_variant - inp.gf_inc


@sub.hatchet(needs=["hatchet_gf_inc", "hatchet_gf_variant"])
def sub_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf_variant - inp.hatchet_gf_inc


@case("sub-fill", "variant.sub(base, fill_value=0): real deltas, inclusive recomputed",
      needs=["gf_inc", "gf_variant"])
def sub_fill(inp: Any) -> Any:
    return inp.gf_variant.sub(inp.gf_inc, fill_value=0)


@case("drop-index-levels", "drop_index_levels() (mean over ranks)", needs=["gf_inc"])
def drop_index_levels(inp: Any) -> Any:
    return inp.gf_inc.drop_index_levels(inplace=False)


@drop_index_levels.hatchet(needs=["hatchet_gf_inc"], fresh=["hatchet_gf_inc"])
def drop_index_levels_hatchet(inp: Any) -> Any:
    return inp.hatchet_gf_inc.drop_index_levels()  # in place


# ------------------------------------------------------ readers (issues 4, 5)
@case("read-hpctoolkit", "read an HPCToolkit database (experiment.xml + metric-db)",
      needs=["path:hpctoolkit"])
def read_hpctoolkit(inp: Any) -> Any:
    return graphframe.read(inp.path("hpctoolkit"))


@read_hpctoolkit.hatchet(needs=["path:hpctoolkit"])
def read_hpctoolkit_hatchet(inp: Any) -> Any:
    return hatchet_module().GraphFrame.from_hpctoolkit(str(inp.path("hpctoolkit")))


@case("read-caliper-json", "read Caliper json-split", needs=["path:caliper"])
def read_caliper_json(inp: Any) -> Any:
    return graphframe.read(inp.path("caliper"))


@read_caliper_json.hatchet(needs=["path:caliper"])
def read_caliper_json_hatchet(inp: Any) -> Any:
    return hatchet_module().GraphFrame.from_caliper(str(inp.path("caliper")))
