"""Where the time of reading one small profile goes, stage by stage.

Runs the stages :func:`graphframe.ensemble.reading.read_one` goes through on
``--count`` copies of the Thicket-tutorial ``.cali`` files (made by
:mod:`benchmarks.ensemble_bench`) in this process, one stage at a time over all
files, and prints the CPU milliseconds per file of each (the fastest of three runs; CPU time
because the machine is shared)::

    python -m benchmarks.ensemble_stages --count 1000

Stages: ``hash`` (content hash), ``sniff`` (format detection), ``decode``
(the ``.cali`` text into arrays), ``records`` (call paths and typed columns),
``profile`` (the RawProfile: ProfileBuilder, validation), ``reduce`` (the
compact tables an Ensemble composes), ``pickle`` (the tables' round trip
through pickle, as between processes), ``compose`` (all profiles into one
Ensemble, divided by the count) and ``read_one`` (the whole per-file path,
measured on its own).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import graphframe_readers
from graphframe.ensemble.build import parts_from_tables
from graphframe.ensemble.reading import read_one
from graphframe.ensemble.sources import content_hash
from graphframe.ensemble.tables import tables_from_raw
from graphframe_readers.caliper.cali.decode import cali_records
from graphframe_readers.caliper.cali.text import read_cali_text
from graphframe_readers.caliper.names import parse_metadata
from graphframe_readers.caliper.records import to_raw_profile

from .ensemble_bench import make_copies


REPEAT = 3


def _stage(items: List[Any], step: Callable[[Any], Any]) -> tuple:
    """Results of ``step`` over ``items`` and the fastest of :data:`REPEAT` runs
    (CPU milliseconds per item: the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.process_time()
        out = [step(x) for x in items]
        best = min(best, time.process_time() - start)
    return out, best * 1000 / max(1, len(items))


def _records(cali: Any) -> Any:
    table = cali_records(cali)
    table.metadata = parse_metadata(cali.globals)
    return table


def stages(files: List[str]) -> Dict[str, float]:
    """Milliseconds per file of every stage (see the module docs)."""
    graphframe_readers.formats()
    for f in files[:10]:
        read_one(f, None, {})  # warm up imports and caches
    ms: Dict[str, float] = {}
    _, ms["hash"] = _stage(files, content_hash)
    _, ms["sniff"] = _stage(files, graphframe_readers.sniff)
    # decoding consumes its input: each stage runs from the file, less the stages before
    _, ms["decode"] = _stage(files, read_cali_text)
    _, upto = _stage(files, lambda f: _records(read_cali_text(f)))
    ms["records"] = upto - ms["decode"]
    raws, ms["profile"] = _stage(files, lambda f: to_raw_profile(_records(read_cali_text(f))))
    ms["profile"] -= upto
    reduced, ms["reduce"] = _stage(list(zip(raws, files)), lambda p: tables_from_raw(*p))
    _, ms["pickle"] = _stage(reduced, lambda t: pickle.loads(pickle.dumps(t, protocol=5)))
    ms["pickled_kb"] = sum(len(pickle.dumps(t, protocol=5)) for t in reduced) / 1024 / len(files)
    _, total = _stage([reduced], lambda ts: parts_from_tables(ts, files))
    ms["compose"] = total / len(files)
    _, ms["read_one"] = _stage(files, lambda f: read_one(f, None, {}))
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "gf-ensemble-bench"))
    args = parser.parse_args()
    files = [str(f) for f in make_copies(Path(args.dir) / f"copies-{args.count}", args.count)]
    result = stages(files)
    result["load"] = list(os.getloadavg())
    print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v)
                      for k, v in result.items()}))


if __name__ == "__main__":
    main()
