"""Hatchet's reader classes under Hatchet's module paths.

Hatchet code (and tools built on it) import readers as
``from hatchet.readers.caliper_reader import CaliperReader`` and call
``CaliperReader(path).read()``; with graphframe the same line reads
``from graphframe.readers.caliper_reader import CaliperReader``. Each class
keeps Hatchet's constructor arguments and its ``read()`` calls the matching
``GraphFrame.from_*`` constructor, so the result (and every error) is exactly
that constructor's. This package is not the format decoders: those are the
top-level ``graphframe_readers`` package, which returns RawProfiles.

| module | class | same as |
|---|---|---|
| ``caliper_reader`` | ``CaliperReader(filename_or_stream, query="")`` | ``GraphFrame.from_caliper`` |
| ``caliper_native_reader`` | ``CaliperNativeReader(filename_or_caliperreader, native, string_attributes)`` | ``from_caliperreader`` |
| ``hpctoolkit_reader`` | ``HPCToolkitReader(dir_name)`` | ``from_hpctoolkit`` |
| ``hpctoolkit_reader_latest`` | ``HPCToolkitReaderLatest(dir_path, **options)`` | ``from_hpctoolkit_latest`` |
| ``gprof_dot_reader`` | ``GprofDotReader(filename)`` | ``from_gprof_dot`` |
| ``cprofile_reader`` | ``CProfileReader(filename)`` | ``from_cprofile`` |
| ``pyinstrument_reader`` | ``PyinstrumentReader(filename)`` | ``from_pyinstrument`` |
| ``tau_reader`` | ``TAUReader(dirname)`` | ``from_tau`` |
| ``timemory_reader`` | ``TimemoryReader(input, select=None)`` | ``from_timemory`` |
| ``literal_reader`` | ``LiteralReader(graph_dict)`` | ``from_literal`` |
| ``json_reader`` | ``JsonReader(json_spec)`` | ``from_json`` |
| ``spotdb_reader`` | ``SpotDBReader(db_key, list_of_ids=None, default_metric=...)``, ``SpotDatasetReader(regionprofile, metadata, attr_info)`` | ``from_spotdb`` |
"""
