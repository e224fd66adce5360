"""Draw every plot kind of :mod:`graphframe.plot` from the real profiles in ``../shared/data``.

Run from the repository root (needs the ``plot`` extra)::

    python docs/gallery/make_gallery.py                 # writes docs/gallery/*.png
    python docs/gallery/make_gallery.py --data DIR --out DIR

The pictures in ``docs/guide/plots.md`` are this script's output, so they
stay true to the code. Figures are made without pyplot and written with
fixed metadata, so running it twice gives the same files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent.parent / "shared" / "data"

#: name -> (caption, figure size, function(data folder) -> drawing function of an Axes)
Gallery = Dict[str, Tuple[str, Tuple[float, float], Callable[[Path], Callable[[Any], Any]]]]


def _read(path: Path) -> Any:
    import graphframe
    return graphframe.read(path)


def _flamegraph(data: Path) -> Callable[[Any], Any]:
    gf = _read(data / "hpctoolkit" / "hatchet-osu-allgather-database")
    return lambda ax: gf.plot.flamegraph(ax=ax)


def _icicle(data: Path) -> Callable[[Any], Any]:
    gf = _read(data / "hpctoolkit" / "hatchet-gamess-v4-database")
    return lambda ax: gf.plot.icicle(color="name", ax=ax)


def _diff(data: Path) -> Callable[[Any], Any]:
    import graphframe
    quartz = data / "ensemble" / "thicket-tutorial" / "quartz"
    before = _read(quartz / "GCC_10.3.1_BaseSeq_08388608" / "O3" /
                   "GCC_1031_BaseSeq_O3_8388608_01.cali")
    after = _read(quartz / "clang14.0.6_BaseSeq_8388608" / "clang_1406_BaseSeq_O3_8388608_01.cali")
    d = graphframe.diff(before, after, "time (exc)")
    return lambda ax: d.plot.flamegraph(ax=ax)


def _lulesh(data: Path, cores: int) -> Any:
    folder = data / "ensemble" / "hatchet-tutorial" / "lulesh-scaling"
    return _read(folder / f"lulesh-annotation-profile-{cores}cores.json")


def _heatmap(data: Path) -> Callable[[Any], Any]:
    gf = _lulesh(data, 64)
    return lambda ax: gf.plot.heatmap(top=25, log=True, ax=ax)


def _imbalance(data: Path) -> Callable[[Any], Any]:
    gf = _lulesh(data, 64)
    return lambda ax: gf.plot.heatmap(imbalance=True, top=25, ax=ax)


def _bar(data: Path) -> Callable[[Any], Any]:
    gf = _read(data / "tau" / "taucmdr-mm-mpi-8ranks-callpath")
    return lambda ax: gf.plot.bar(top=8, stacked="rank", ax=ax)


def _hist(data: Path) -> Callable[[Any], Any]:
    gf = _lulesh(data, 343)
    return lambda ax: gf.plot.hist("CalcQForElems", bins=30, ax=ax)


def _box(data: Path) -> Callable[[Any], Any]:
    gf = _lulesh(data, 343)
    return lambda ax: gf.plot.box(top=6, ax=ax)


def _violin(data: Path) -> Callable[[Any], Any]:
    gf = _lulesh(data, 343)
    return lambda ax: gf.plot.violin(top=6, ax=ax)


def _scaling(data: Path) -> Callable[[Any], Any]:
    from graphframe.plot import scaling, scaling_table
    folder = data / "ensemble" / "hatchet-tutorial" / "lulesh-scaling"
    runs = [_read(p) for p in sorted(folder.glob("*.json"))]
    table = scaling_table(runs, regions=["lulesh.cycle", "LagrangeNodal", "LagrangeElements",
                                         "CalcForceForNodes"])
    return lambda axes: scaling(table, mode="weak", ax=axes)


def _ensemble(data: Path, *parts: str) -> Any:
    from graphframe.ensemble import Ensemble
    return Ensemble.read(data.joinpath("ensemble", "thicket-tutorial", *parts))


def _ensemble_heatmap(data: Path) -> Callable[[Any], Any]:
    ens = _ensemble(data, "lassen")
    return lambda ax: ens.plot.heatmap(by="ProblemSizeRunParam", top=20, log=True, ax=ax)


def _ensemble_bar(data: Path) -> Callable[[Any], Any]:
    ens = _ensemble(data, "mpi_scaling_cali")
    return lambda ax: ens.plot.bar("Avg time/rank", by="mpi.world.size", top=8, ax=ax)


def _ensemble_box(data: Path) -> Callable[[Any], Any]:
    ens = _ensemble(data, "quartz", "GCC_10.3.1_BaseSeq_08388608")
    ens = ens.replace(metadata=ens.metadata.assign(
        opt=ens.metadata["rajaperf_compiler_options"].astype(str).str.extract(r"(-O\d)")[0]))
    return lambda ax: ens.plot.box("Stream_TRIAD", by="opt", ax=ax)


def _ensemble_scaling(data: Path) -> Callable[[Any], Any]:
    ens = _ensemble(data, "mpi_scaling_cali")
    return lambda axes: ens.plot.scaling("Avg time/rank", by="mpi.world.size", top=4,
                                         mode="weak", ax=axes)


def _timeline(data: Path) -> Callable[[Any], Any]:
    import graphframe
    trace = graphframe.read_trace(data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks")
    return lambda ax: graphframe.plot.timeline(trace, ax=ax)


GALLERY: Gallery = {
    "flamegraph": ("HPCToolkit, OSU allgather (10 ranks x 2 threads): coloured by module",
                   (12.0, 6.0), _flamegraph),
    "icicle": ("HPCToolkit, GAMESS (11,302 nodes, depth 74): roots on top, coloured by name",
               (12.0, 7.0), _icicle),
    "diff-flamegraph": ("RAJAPerf Base_Seq -O3, GCC 10.3 -> clang 14: width = clang's time, "
                        "colour = change of exclusive time",
                        (12.0, 6.0), _diff),
    "heatmap": ("LULESH on 64 ranks (Caliper): the 25 call paths with the largest time on "
                "any rank, log scale", (10.0, 7.0), _heatmap),
    "heatmap-imbalance": ("LULESH on 64 ranks: value / mean over ranks (1 = average)",
                          (10.0, 7.0), _imbalance),
    "bar": ("TAU, matrix multiply on 8 ranks: top exclusive times stacked by rank",
            (9.0, 4.5), _bar),
    "hist": ("LULESH on 343 ranks: CalcQForElems across ranks", (8.0, 4.5), _hist),
    "box": ("LULESH on 343 ranks: the 6 largest call paths across ranks", (9.0, 4.5), _box),
    "violin": ("LULESH on 343 ranks: the same as violins", (9.0, 4.5), _violin),
    "scaling": ("LULESH weak scaling, 1 to 512 ranks: time, scaled speedup, efficiency",
                (15.0, 4.8), _scaling),
    "ensemble-heatmap": ("RAJAPerf on lassen, 20 runs: call paths x problem size (mean of "
                         "the runs of each size), log scale", (10.0, 7.0), _ensemble_heatmap),
    "ensemble-bar": ("LULESH, 5 runs (27..343 ranks): average time per rank stacked by rank "
                     "count", (9.0, 4.5), _ensemble_bar),
    "ensemble-box": ("RAJAPerf Base_Seq, GCC 10.3, 40 runs: Stream_TRIAD across the 10 "
                     "trials of each optimisation level", (9.0, 4.5), _ensemble_box),
    "ensemble-scaling": ("LULESH MPI runs, 27..343 ranks (ensemble by mpi.world.size): "
                         "weak scaling", (15.0, 4.8), _ensemble_scaling),
    "timeline": ("SST DUMPI MPI trace, 4 ranks: calls over time, coloured by function",
                 (12.0, 4.0), _timeline),
}


def make(data: Path, out: Path, names: List[str]) -> List[Path]:
    """Write ``out/NAME.png`` for each gallery entry; return the paths."""
    from matplotlib.figure import Figure
    written = []
    for name in names:
        caption, size, build = GALLERY[name]
        draw = build(data)
        fig = Figure(figsize=size, layout="constrained")
        if name.endswith("scaling"):
            draw(list(fig.subplots(1, 3)))
        else:
            draw(fig.add_subplot())
        fig.suptitle(caption, fontsize=10)
        path = out / f"{name}.png"
        fig.savefig(path, dpi=80, metadata={"Software": None})
        written.append(path)
    return written


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the plot gallery from real profiles.")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder")
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go")
    parser.add_argument("names", nargs="*", choices=[[]] + list(GALLERY), default=[],
                        help="entries to draw (default: all)")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        parser.error(f"{args.data} is not a folder (give --data)")
    args.out.mkdir(parents=True, exist_ok=True)
    for path in make(args.data, args.out, args.names or list(GALLERY)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
