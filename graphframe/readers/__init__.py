"""Hatchet's reader classes under Hatchet's module paths, made from one table.

Hatchet code (and tools built on it) import readers as
``from hatchet.readers.caliper_reader import CaliperReader`` and call
``CaliperReader(path).read()``; with graphframe the same line reads
``from graphframe.readers.caliper_reader import CaliperReader``. Every class and
module here is made from the table of Hatchet's names
(:data:`graphframe.io.hatchet_names.HATCHET_NAMES`: the class, its module, its
arguments and the ``GraphFrame.from_*`` constructor its ``read()`` calls), so the
result (and every error) is exactly that constructor's. The SpotDB classes, which carry
logic of their own, are the module :mod:`graphframe.readers.spotdb_reader`; the
methods of Hatchet's classes besides ``read()`` (``CaliperReader.read_json_sections``,
``HPCToolkitReader.fill_tables``, ``GprofDotReader.create_graph``) are in
:mod:`graphframe.readers.methods`. This package
is not the format decoders: those are the top-level ``graphframe_readers`` package, which
returns RawProfiles.

| module | class | same as |
|---|---|---|
| ``caliper_reader`` | ``CaliperReader(filename_or_stream, query="")`` | ``GraphFrame.from_caliper`` |
| ``caliper_native_reader`` | ``CaliperNativeReader(filename_or_caliperreader, native, string_attributes)`` | ``from_caliperreader`` (``read_timeseries``: ``from_timeseries``) |
| ``hpctoolkit_reader`` | ``HPCToolkitReader(dir_name)`` | ``from_hpctoolkit`` |
| ``hpctoolkit_reader_latest`` | ``HPCToolkitReaderLatest(dir_path, **options)`` | ``from_hpctoolkit_latest`` |
| ``gprof_dot_reader`` | ``GprofDotReader(filename)`` | ``from_gprof_dot`` |
| ``cprofile_reader`` | ``CProfileReader(filename)`` | ``from_cprofile`` |
| ``pyinstrument_reader`` | ``PyinstrumentReader(filename)`` | ``from_pyinstrument`` |
| ``tau_reader`` | ``TAUReader(dirname)`` | ``from_tau`` |
| ``timemory_reader`` | ``TimemoryReader(input, select=None)`` | ``from_timemory`` |
| ``perfflowaspect_reader`` | ``PerfFlowAspectReader(filename, scan_cpu_mem=False)`` | ``from_perfflowaspect`` |
| ``literal_reader`` | ``LiteralReader(graph_dict)`` | ``from_literal`` |
| ``json_reader`` | ``JsonReader(json_spec)`` | ``from_json`` |
| ``spotdb_reader`` | ``SpotDBReader(db_key, list_of_ids=None, default_metric=...)``, ``SpotDatasetReader(regionprofile, metadata, attr_info)`` | ``from_spotdb`` |

Examples
--------
>>> from graphframe.readers.tau_reader import TAUReader
>>> TAUReader("tau-profiles").dirname
'tau-profiles'
>>> import inspect
>>> str(inspect.signature(TAUReader))
'(dirname: Any) -> None'
"""

from __future__ import annotations

import sys
import types

from ..graphframe import GraphFrame
from ..io.hatchet_names import HATCHET_NAMES, reader_class
from .methods import READER_METHODS


def _install() -> None:
    """One module per row of the table, each holding its reader class."""
    for row in HATCHET_NAMES:
        if not row.reader_class:  # graphframe's own constructor name, no Hatchet class
            continue
        name = f"{__name__}.{row.module}"
        module = sys.modules.get(name)
        if module is None:
            module = types.ModuleType(name, f"Hatchet's ``hatchet.readers.{row.module}`` "
                                            f"path: ``{row.reader_class}``.")
            sys.modules[name] = module
        # Hatchet's methods besides read() (read_json_sections, fill_tables, create_graph)
        own = READER_METHODS.get(row.reader_class)
        cls = reader_class(row, GraphFrame, (own,) if own else ())
        setattr(module, row.reader_class, cls)
        setattr(sys.modules[__name__], row.module, module)


_install()
