"""The one place this package imports HPCToolkit database readers from.

The ``meta.db``/``profile.db`` decoders live with the HPCToolkit profile
reader; if they move, only these imports change.
"""

from ...hpctoolkit_dbfile import DbFile
from ...hpctoolkit_metadb import read_meta_db, tree_arrays
from ...hpctoolkit_profiledb import ProfileDb, identity_table

__all__ = ["DbFile", "ProfileDb", "identity_table", "read_meta_db", "tree_arrays"]
