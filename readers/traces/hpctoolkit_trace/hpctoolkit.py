"""The one place this package imports HPCToolkit database readers from.

The ``meta.db``/``profile.db`` decoders live with the HPCToolkit profile
reader (:mod:`graphframe_readers.hpctoolkit.latest`); if they move, only these imports
change.
"""

from ...hpctoolkit.latest.dbfile import DbFile
from ...hpctoolkit.latest.metadb import read_meta_db, tree_arrays
from ...hpctoolkit.latest.profiledb import ProfileDb, identity_table

__all__ = ["DbFile", "ProfileDb", "identity_table", "read_meta_db", "tree_arrays"]
