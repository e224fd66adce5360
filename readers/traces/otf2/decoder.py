"""Otf2Decoder: OTF2 traces (Score-P...) through the ``otf2`` package.

The anchor file (``traces.otf2``) or its folder is the trace. One byte
source per rank (location group): :meth:`Otf2Decoder.sources` returns the
anchor once per rank, so ``jobs=`` reads ranks in worker processes. A
source's locations are read with OTF2's local event readers; see
:mod:`.events` for what becomes which event. Times are the file's timer
ticks converted to ns (not rebased by the global offset).

A location that yields fewer events than its definition announces, or an
error of the OTF2 library, is a ReadError naming the anchor, the location
and the event count reached.

Examples
--------
>>> import graphframe_readers.traces as rt
>>> "otf2" in rt.trace_formats()
True
"""

from __future__ import annotations

import os
from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, List

import numpy as np

from ...errors import MissingMembersError, ReadError
from ..decoder import Decoder
from ..events import EventBatch, StringTable
from ..handler import EventHandler
from ..sources import ByteSource, FileSource
# The modules that decode events and definitions are imported by the functions that use
# them: sniffing (which imports this module whatever the input) does not pay for them.
if TYPE_CHECKING:
    from .definitions import Tables


def location_file(anchor: str, ref: int, ext: str) -> str:
    """The file of location ``ref``: ``<archive>/<ref>.evt`` or ``.def`` beside the anchor.

    >>> location_file("/t/traces.otf2", 3, "evt")
    '/t/traces/3.evt'
    """
    return os.path.join(anchor[:-len(".otf2")] if anchor.endswith(".otf2") else anchor,
                        f"{ref}.{ext}")


#: OTF2 writers end every file with END_OF_FILE (2) and END_OF_BUFFER (1)
_END = b"\x02\x01"


def check_complete(file: str, chunk: int) -> None:
    """ReadError when an OTF2 file lacks the two bytes its writer ends it with (a file cut
    short that the library would read without a word). Files of whole chunks (padded by
    some substrates) are not checked."""
    try:
        with open(file, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(size - 2, 0))
            tail = fh.read(2)
    except OSError as exc:
        raise ReadError(file, f"cannot open the file: {exc.strerror}") from exc
    if tail != _END and (not size or not chunk or size % chunk):
        raise ReadError(file, "the file does not end with OTF2's end-of-file mark "
                        "(truncated?)", position=f"byte {size}",
                        expected="the bytes 02 01 that end every OTF2 file")


def anchor_file(path: Any) -> Path:
    """The ``.otf2`` anchor file of ``path`` (the file, or the one in a folder).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); _ = open(os.path.join(d, "traces.otf2"), "wb")
    >>> anchor_file(d).name
    'traces.otf2'
    """
    p = Path(os.fspath(path))
    if p.is_dir():
        found = sorted(p.glob("*.otf2"))
        if len(found) != 1:
            raise ReadError(p, f"{len(found)} .otf2 anchor files in the folder",
                            expected="exactly one, e.g. traces.otf2")
        return found[0]
    return p


class Otf2Decoder(Decoder):
    """OTF2 traces (optional dependency ``otf2``)."""

    format_name = "otf2"
    description = "OTF2 traces (Score-P), anchor file *.otf2 or its folder"
    #: an OTF2 event costs a callback from the library: ~15 bytes cost what ~100 bytes of
    #: a format decoded by numpy do
    worker_bytes = 2 << 20

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        if path.is_dir():
            return len(list(path.glob("*.otf2"))) == 1
        return head[2:6] == b"OTF2" or (path.suffix == ".otf2" and not head)

    @classmethod
    def sources(cls, path: Any) -> List[ByteSource]:
        if isinstance(path, ByteSource):
            return [path]
        if isinstance(path, (list, tuple)):
            if all(isinstance(p, ByteSource) for p in path):
                return list(path)
            path = path[0]
        anchor = anchor_file(path)
        tables = _tables(str(anchor))
        ranks = sorted({rank for rank, _, _ in tables.locations.values()})
        absent = {}
        for ref, (rank, _, _) in sorted(tables.locations.items()):
            for ext in ("evt", "def"):
                file = location_file(str(anchor), ref, ext)
                if not os.path.isfile(file):
                    absent[f"location {ref} (rank {rank}) .{ext}"] = file
        sources = [FileSource(anchor, rank=r) for r in ranks]
        if absent:
            gone = {tables.locations[int(k.split()[1])][0] for k in absent}
            raise MissingMembersError(anchor, absent, present=[s for s in sources
                                                              if s.rank not in gone],
                                      declared=f"{len(tables.locations)} locations")
        return sources

    def input_bytes(self, sources: List[ByteSource]) -> int:
        """The sizes of the event files of the archive (the sources name its anchor)."""
        total = 0
        for anchor in {str(anchor_file(s.name)) for s in sources}:
            folder = Path(anchor[:-len(".otf2")] if anchor.endswith(".otf2") else anchor)
            try:
                total += sum(f.stat().st_size for f in folder.glob("*.evt"))
            except OSError:
                pass
        return total

    def decode(self, source: ByteSource, handler: EventHandler) -> None:
        anchor = str(anchor_file(source.name))
        tables = _tables(anchor)
        handler.on_definitions(tables.definitions.copy())
        locs = [ref for ref, (rank, _, _) in tables.locations.items()
                if source.rank is None or rank == source.rank]
        with _opened(anchor) as handle:
            self._read(handle, tables, locs, handler, anchor)

    def _read(self, handle: Any, tables: Tables, locs: List[int],
              handler: EventHandler, anchor: str) -> None:
        from .definitions import import_otf2
        from .events import LocationEvents, read_chunks
        _otf2 = import_otf2()[1]
        strings = StringTable()
        refs = sorted(tables.region_names)
        # region ref -> string id; -2: a defined region not interned yet (Score-P defines
        # hundreds of MPI wrappers a run never enters: only the regions met are interned)
        lookup = np.full((max(refs) + 2) if refs else 1, -1, dtype=np.int32)
        lookup[refs] = -2

        def intern(region: np.ndarray) -> np.ndarray:
            inside = (region >= 0) & (region < len(lookup) - 1)
            at = np.where(inside, region, len(lookup) - 1)
            ids = lookup[at]
            new = np.unique(at[ids == -2])
            if len(new):
                lookup[new] = strings.intern_many([tables.region_names[r] for r in new.tolist()])
                ids = lookup[at]
            return ids.astype(np.int32)

        evt_chunk, def_chunk = _chunks(_otf2, handle)
        for ref in locs:
            check_complete(location_file(anchor, ref, "evt"), evt_chunk)
            check_complete(location_file(anchor, ref, "def"), def_chunk)
        for ref in locs:
            _otf2.Reader_SelectLocation(handle, ref)
        _open_files(_otf2, handle, locs, anchor)
        try:
            for ref in locs:
                rank, thread, expected = tables.locations[ref]
                evt = _otf2.Reader_GetEvtReader(handle, ref)
                state = LocationEvents(tables, rank, thread, intern, strings.intern_many)
                seen = 0
                try:
                    for rows, read in read_chunks(_otf2, evt):
                        seen += read
                        if not len(rows):
                            continue
                        cols = state.columns(rows)
                        handler.on_batch(EventBatch.build(
                            strings, rank=rank, thread=thread, source=anchor, **cols))
                except _otf2.Error as exc:
                    raise ReadError(anchor, f"the OTF2 library failed reading "
                                    f"{location_file(anchor, ref, 'evt')}: {exc}",
                                    position=f"location {ref}, after {seen} decoded events",
                                    expected="readable event records") from exc
                finally:
                    _otf2.Reader_CloseEvtReader(handle, evt)
                if seen != expected:
                    raise ReadError(anchor, f"location {ref} has {seen} events in "
                                    f"{location_file(anchor, ref, 'evt')}, its "
                                    f"definition announces {expected}",
                                    position=f"location {ref}, event {seen}",
                                    expected="all announced events (truncated .evt file?)")
        finally:
            _otf2.Reader_CloseEvtFiles(handle)


def _chunks(lib: Any, handle: Any) -> tuple:
    """(event chunk size, definition chunk size) of the archive; (0, 0) when unknown."""
    try:
        sizes = lib.Reader_GetChunkSize(handle)
        return int(sizes[0]), int(sizes[1])
    except (lib.Error, TypeError, ValueError, IndexError):
        return 0, 0


def _open_files(lib: Any, handle: Any, locs: List[int], anchor: str) -> None:
    """Open the locations' event files and read their local definitions: a location whose
    ``.def`` file the library cannot open or read is a ReadError naming that file (its
    events would otherwise be read with the wrong communicators and ids)."""
    try:
        lib.Reader_OpenDefFiles(handle)
    except lib.Error as exc:
        raise ReadError(anchor, f"the OTF2 library cannot open the local definition files: "
                        f"{exc}", position="the local definition files",
                        expected="readable local definitions") from exc
    lib.Reader_OpenEvtFiles(handle)
    try:
        for ref in locs:
            file = location_file(anchor, ref, "def")
            try:
                reader = lib.Reader_GetDefReader(handle, ref)
            except lib.Error as exc:
                reader, failure = None, exc
            else:
                failure = None
            if not reader:
                raise ReadError(anchor, f"the OTF2 library cannot open the local definitions "
                                f"{file}" + (f": {failure}" if failure else ""),
                                position=f"location {ref}",
                                expected="readable local definitions") from failure
            try:
                lib.Reader_ReadAllLocalDefinitions(handle, reader)
            except lib.Error as exc:
                raise ReadError(anchor, f"the OTF2 library cannot read the local "
                                f"definitions {file}: {exc}", position=f"location {ref}",
                                expected="readable local definitions") from exc
            finally:
                lib.Reader_CloseDefReader(handle, reader)
    finally:
        lib.Reader_CloseDefFiles(handle)


#: (anchor, mtime, size) -> Tables of the last traces read in this process
_CACHE: "OrderedDict[tuple, Tables]" = OrderedDict()


def _tables(anchor: str) -> Tables:
    """The anchor's definitions, read once per process while the file is unchanged."""
    from .definitions import import_otf2
    from .globaldefs import read_global
    try:
        st = os.stat(anchor)
    except OSError as exc:
        raise ReadError(anchor, f"cannot open the file: {exc.strerror}") from exc
    key = (anchor, st.st_mtime_ns, st.st_size)
    if key not in _CACHE:
        lib = import_otf2()[1]
        defs = anchor[:-len(".otf2")] + ".def" if anchor.endswith(".otf2") else anchor
        with _opened(anchor) as handle:
            try:
                tables = read_global(lib, handle, anchor)
            except lib.Error as exc:
                raise ReadError(anchor, f"the OTF2 library cannot read the definitions "
                                f"{defs}: {exc}", position="the global definitions",
                                expected="readable global definitions") from exc
            check_complete(defs, _chunks(lib, handle)[1])
            _CACHE[key] = tables
        while len(_CACHE) > 4:
            _CACHE.popitem(last=False)
    return _CACHE[key]


@contextmanager
def _opened(anchor: str) -> Iterator[Any]:
    """A low-level OTF2 reader handle (ReadError when the library cannot open the trace)."""
    from .definitions import import_otf2
    lib = import_otf2()[1]
    try:
        handle = lib.Reader_Open(anchor)
        lib.Reader_SetSerialCollectiveCallbacks(handle)
    except lib.Error as exc:
        raise ReadError(anchor, f"the OTF2 library cannot open the trace: {exc}",
                        position="the anchor file (OTF2 gives no offset)",
                        expected="an OTF2 anchor file with its definitions") from exc
    try:
        yield handle
    finally:
        lib.Reader_Close(handle)


DECODER = Otf2Decoder
