"""One global string table for the names of many sources (trace handlers)."""

from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

from .events import StringTable


class NameMap:
    """Maps the string tables of many sources onto one global table."""

    def __init__(self) -> None:
        self.names = StringTable()
        self._maps: Dict[int, Tuple[StringTable, np.ndarray]] = {}

    def ids(self, table: StringTable, local: np.ndarray) -> np.ndarray:
        """Global ids for ``local`` ids of ``table`` (-1 stays -1)."""
        entry = self._maps.get(id(table))
        if entry is None or entry[0] is not table:
            entry = (table, np.zeros(0, dtype=np.int32))
        mapping = entry[1]
        if len(mapping) < len(table):
            new = self.names.intern_many(table.strings[len(mapping):])
            mapping = np.concatenate([mapping, new])
            self._maps[id(table)] = (table, mapping)
        ext = np.append(mapping, np.int32(-1))
        return ext[np.where(local < 0, len(mapping), local)]
