"""The current HPCToolkit layout: ``meta.db`` + ``profile.db`` (see :mod:`readers.hpctoolkit`)."""
