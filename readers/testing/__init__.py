"""Test support for readers: the conformance checks and writers of test inputs.

* :func:`check_reader` runs the named checks every profile reader (ours or a
  plugin's) must pass (:data:`READER_CHECKS`: sniffing, a valid RawProfile,
  determinism, no file left open, a located error on a truncated copy, flipped
  bytes read cleanly or refused); :func:`check_decoder` does the same for trace
  decoders (:data:`DECODER_CHECKS`, each case in a child process under a time and
  memory limit).
* :func:`check_decoder` runs the named checks every trace decoder must pass
  on a :class:`DecoderSubject` (a sample trace): clean errors or bounded reads
  on damaged and hostile copies, each in a child process under a time and
  memory limit (:mod:`.decoders`; the built-in samples are
  :data:`~.trace_subjects.TRACE_SUBJECTS`; the shape of a named check is
  :class:`~.checks.Check`).
* The writers turn a :class:`~graphframe_readers.RawProfile` into files of the formats
  the readers read (``write_literal``, ``write_caliper_json``, ``write_cali``,
  ``write_hpctoolkit``, ``write_hpctoolkit_latest``; one module per format
  in :mod:`graphframe_readers.testing.writers`), so tests and benchmarks can make inputs
  of any size. ``generate_callgrind``, ``generate_gprof`` and ``generate_perf_script`` make raw profiler
  output of any size with the values it must read back as.
* :func:`sample_profile` is a small profile with ranks and threads to write;
  :func:`random_tree_profile` and :func:`random_hpctoolkit_profile` make large ones.

Examples
--------
>>> import os, tempfile, graphframe_readers
>>> from graphframe_readers.testing import check_reader, write_literal
>>> b = graphframe_readers.ProfileBuilder("demo")
>>> ids = b.add_nodes([-1, 0], {"name": ["main", "solve"]})
>>> b.add_rows([0, 1], {"time": [1.0, 2.0]})
>>> tmp = tempfile.mkdtemp()
>>> p = write_literal(b.build(["time"]), os.path.join(tmp, "demo.json"))
>>> check_reader(p, "literal", tmp).metrics["time"].tolist()
[1.0, 2.0]
"""

from .checks import Case, Check
from .conformance import READER_CHECKS, ReaderSubject, check_reader, check_subject, files_under
from .decoders import DECODER_CHECKS, DecoderSubject, check_decoder
from .samples import random_hpctoolkit_profile, random_tree_profile, sample_profile
from .writers.caliper import write_cali, write_caliper_json
from .writers.callgrind import generate_callgrind
from .writers.gprof import generate_gprof
from .writers.perf import generate_perf_script
from .writers.hpctoolkit import write_example_database, write_hpctoolkit
from .writers.hpctoolkit_latest import write_hpctoolkit_latest
from .writers.literal import write_literal

__all__ = ["Case", "Check", "DECODER_CHECKS", "DecoderSubject", "READER_CHECKS",
           "ReaderSubject", "check_decoder", "check_reader", "check_subject", "files_under",
           "generate_callgrind", "generate_gprof", "generate_perf_script",
           "random_hpctoolkit_profile", "random_tree_profile",
           "sample_profile", "write_cali", "write_caliper_json",
           "write_example_database", "write_hpctoolkit", "write_hpctoolkit_latest",
           "write_literal"]
