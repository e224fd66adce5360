"""The current HPCToolkit layout: ``meta.db`` + ``profile.db`` (see :mod:`graphframe_readers.hpctoolkit`)."""
