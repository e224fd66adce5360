"""Constructors with Hatchet's names, one module per reader family.

Each is thin: it calls its reader with explicit keyword options and hands the
RawProfile to ``cls.from_raw``. Each imports its reader family when it is
first called, as ``graphframe_readers.read`` does, so ``import graphframe`` loads no
format module. Keyword names are Hatchet's, and the readers
take the same names (one name per option), so ``graphframe.read(path,
**options)`` accepts what the constructor accepts (``from_caliper``'s ``query``
excepted: a cali-query run is not a reader option).

Each module holds one class of classmethods (``hpctoolkit.HPCToolkitConstructors``,
``caliper.CaliperConstructors``, ...); :mod:`graphframe.io.reader_constructors`
joins them into the one class GraphFrame inherits.
"""
