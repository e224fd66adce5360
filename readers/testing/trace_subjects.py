"""The sample traces the decoder checks run on: one entry per trace, paths in ``../shared/data``.

Each :class:`~graphframe_readers.testing.decoders.DecoderSubject` names a real
trace of a built-in format and what the checks need to know (its member
files, which are text, which are gzip). The test suite runs every check of
:data:`~graphframe_readers.testing.decoders.DECODER_CHECKS` that applies on
every subject, so a new decoder gets the whole suite by adding its entries
here, e.g. for a GC log::

    DecoderSubject("jvm-gc", "traces/jvm-gc/logs/jdk17_g1_128m_safepoint.log",
                   text=("*.log",), huge_string_after=b"Using ")

Examples
--------
>>> sorted({s.format for s in TRACE_SUBJECTS})[:3]
['chrome', 'dumpi', 'hpctoolkit-trace']
>>> [s.id for s in TRACE_SUBJECTS if s.format == "otf2"]
['otf2-pipit-ping-pong-otf2']
"""

from __future__ import annotations

from typing import Tuple

from .decoders import DecoderSubject

_PROJ_MEMBERS = ("*.sts", "*.log.gz")

#: The built-in formats' sample traces (relative to the shared data folder).
TRACE_SUBJECTS: Tuple[DecoderSubject, ...] = (
    DecoderSubject("chrome", "chrome-trace/generated/workload.viztracer.json",
                   text=("*.json",), huge_string_after=b'"name": "', cut_may_read=True),
    DecoderSubject("otf2", "otf2/pipit-ping-pong-otf2",
                   members=("traces.otf2", "traces.def", "traces/*"), requires=("otf2",)),
    DecoderSubject("dumpi", "traces/dumpi/sst-dumpi-testtrace-4ranks/testtrace.meta",
                   members=("testtrace.meta", "testtrace-*.bin"), text=("*.meta",),
                   huge_string_after=b"hostname="),
    DecoderSubject("dumpi", "traces/dumpi/rma-fence/traces/np3", name="rma-fence-np3",
                   members=("*.meta", "*.bin"), text=("*.meta",)),
    DecoderSubject("recorder", "traces/recorder/recorder-simple",
                   members=("VERSION", "recorder.mt", "*.itf", "*.mt"),
                   optional=("VERSION",)),
    DecoderSubject("recorder", "traces/recorder/io-mix/traces-v2.2/np2", name="io-mix-v2.2",
                   members=("VERSION", "recorder.mt", "*.itf", "*.mt"),
                   optional=("VERSION",)),
    DecoderSubject("recorder", "traces/recorder/io-mix/traces/np2", name="io-mix-v2.5",
                   members=("VERSION", "recorder.mt", "*.cst", "*.cfg", "*.ts"),
                   text=("VERSION",)),
    DecoderSubject("nsight", "traces/nsight/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite"),
    # CSV has no end mark: a cut inside a line's last field leaves a valid file
    DecoderSubject("nsight-nvtx-csv", "traces/nsight/nbody-nvtx/trace.csv", text=("*.csv",),
                   huge_string_after=b",main", name="nbody-nvtx", cut_may_read=True),
    DecoderSubject("projections", "traces/projections/hello-1darray-projections",
                   members=_PROJ_MEMBERS, text=_PROJ_MEMBERS, compressed=("*.gz",),
                   huge_string_after=b'CHARE 45 "'),
    DecoderSubject("projections", "projections/pipit-ping-pong-projections",
                   members=_PROJ_MEMBERS, text=_PROJ_MEMBERS, compressed=("*.gz",),
                   skip=("gzip_bomb",)),  # the same gzip path as hello's: 5 s saved
    DecoderSubject("hpctoolkit-trace", "hpctoolkit/pipit-ping-pong-v4-database",
                   members=("meta.db", "profile.db", "trace.db")),
    # a text log: a cut line or flipped bytes may leave a valid (shorter) log; a line
    # that is not valid UTF-8 is a line not understood, counted and kept with its number
    # in metadata["unparsed"] (issue 32's rule for garbage bytes), not an error
    DecoderSubject("jvm-gc", "traces/jvm-gc/logs/jdk17_g1_128m_safepoint.log",
                   text=("*.log",), huge_string_after=b"Using ", cut_may_read=True,
                   skip=("invalid_utf8",)),
    DecoderSubject("mono-mlpd-trace", "traces/mono-mlpd/mlpd/sample.mlpd"),
)
