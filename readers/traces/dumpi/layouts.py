"""Facts of the SST DUMPI binary format (sst-dumpi ``docs/traceformat.dox`` and its I/O
definitions), written down as data: function labels, argument layouts, sizes.

All integers are big-endian. A record is: function label (uint16), mask
(uint8), thread (uint16, when ``mask & THREAD``), CPU then wall times (each
start and stop as uint16 seconds after the bias + uint32 ns, when ``mask &
CPU`` / ``mask & WALL``), perf counters (uint8 count + count pairs of
int64, when ``mask & PERF``), then the call's arguments.

Argument types (:data:`TYPE_SIZE` gives the fixed ones): ``i`` int32,
``req`` int32 request, ``dt`` uint16 datatype, ``comm`` uint16, ``group``
uint16, ``win`` uint16, ``info`` uint16, ``file`` uint16 (MPI-IO file
handle), ``op`` uint8, ``u8`` uint8 (lock type, assertion, file access mode,
seek whence), ``i64`` int64 (also MPI_Offset); ``str`` a string (int32
length + bytes, no NUL); ``ia`` int32 array (int32 length + values),
``dta`` datatype array (int32 length + uint16 values), ``st`` statuses
(present only when ``mask & STATUS``: int32 count, then per status int32
bytes, int32 source, int8 cancelled, int8 error, int32 tag), ``argv``
(MPI_Init: int32 argc, then argc strings of int32 length + bytes). A
trailing ``?`` marks an argument present only on the root
(``commrank == root``).
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from .magic import FOOTER_MAGIC, MAGIC  # noqa: F401 (the file marks, re-exported)

STATUS = 0x03
CPU = 0x04
WALL = 0x08
THREAD = 0x40
PERF = 0x80

_NAMES = """
Send Recv Get_count Bsend Ssend Rsend Buffer_attach Buffer_detach Isend Ibsend Issend
Irsend Irecv Wait Test Request_free Waitany Testany Waitall Testall Waitsome Testsome
Iprobe Probe Cancel Test_cancelled Send_init Bsend_init Ssend_init Rsend_init Recv_init
Start Startall Sendrecv Sendrecv_replace Type_contiguous Type_vector Type_hvector
Type_indexed Type_hindexed Type_struct Address Type_extent Type_size Type_lb Type_ub
Type_commit Type_free Get_elements Pack Unpack Pack_size Barrier Bcast Gather Gatherv
Scatter Scatterv Allgather Allgatherv Alltoall Alltoallv Reduce Op_create Op_free
Allreduce Reduce_scatter Scan Group_size Group_rank Group_translate_ranks Group_compare
Comm_group Group_union Group_intersection Group_difference Group_incl Group_excl
Group_range_incl Group_range_excl Group_free Comm_size Comm_rank Comm_compare Comm_dup
Comm_create Comm_split Comm_free Comm_test_inter Comm_remote_size Comm_remote_group
Intercomm_create Intercomm_merge Keyval_create Keyval_free Attr_put Attr_get Attr_delete
Topo_test Cart_create Dims_create Graph_create Graphdims_get Graph_get Cartdim_get
Cart_get Cart_rank Cart_coords Graph_neighbors_count Graph_neighbors Cart_shift Cart_sub
Cart_map Graph_map Get_processor_name Get_version Errhandler_create Errhandler_set
Errhandler_get Errhandler_free Error_string Error_class Wtime Wtick Init Finalize
Initialized Abort Pcontrol Close_port Comm_accept Comm_connect Comm_disconnect
Comm_get_parent Comm_join Comm_spawn Comm_spawn_multiple Lookup_name Open_port
Publish_name Unpublish_name Accumulate Get Put Win_complete Win_create Win_fence Win_free
Win_get_group Win_lock Win_post Win_start Win_test Win_unlock Win_wait Alltoallw Exscan
Add_error_class Add_error_code Add_error_string Comm_call_errhandler Comm_create_keyval
Comm_delete_attr Comm_free_keyval Comm_get_attr Comm_get_name Comm_set_attr
Comm_set_name File_call_errhandler Grequest_complete Grequest_start Init_thread
Is_thread_main Query_thread Status_set_cancelled Status_set_elements Type_create_keyval
Type_delete_attr Type_dup Type_free_keyval Type_get_attr Type_get_contents
Type_get_envelope Type_get_name Type_set_attr Type_set_name Type_match_size
Win_call_errhandler Win_create_keyval Win_delete_attr Win_free_keyval Win_get_attr
Win_get_name Win_set_attr Win_set_name Alloc_mem Comm_create_errhandler
Comm_get_errhandler Comm_set_errhandler File_create_errhandler File_get_errhandler
File_set_errhandler Finalized Free_mem Get_address Info_create Info_delete Info_dup
Info_free Info_get Info_get_nkeys Info_get_nthkey Info_get_valuelen Info_set
Pack_external Pack_external_size Request_get_status Type_create_darray
Type_create_hindexed Type_create_hvector Type_create_indexed_block Type_create_resized
Type_create_struct Type_create_subarray Type_get_extent Type_get_true_extent
Unpack_external Win_create_errhandler Win_get_errhandler Win_set_errhandler File_open
File_close File_delete File_set_size File_preallocate File_get_size File_get_group
File_get_amode File_set_info File_get_info File_set_view File_get_view File_read_at
File_read_at_all File_write_at File_write_at_all File_iread_at File_iwrite_at File_read
File_read_all File_write File_write_all File_iread File_iwrite File_seek File_get_position
File_get_byte_offset File_read_shared File_write_shared File_iread_shared
File_iwrite_shared File_read_ordered File_write_ordered File_seek_shared
File_get_position_shared File_read_at_all_begin File_read_at_all_end
File_write_at_all_begin File_write_at_all_end File_read_all_begin File_read_all_end
File_write_all_begin File_write_all_end File_read_ordered_begin File_read_ordered_end
File_write_ordered_begin File_write_ordered_end File_get_type_extent Register_datarep
File_set_atomicity File_get_atomicity File_sync MPIO_Test MPIO_Wait MPIO_Testall
MPIO_Waitall MPIO_Testany MPIO_Waitany MPIO_Waitsome MPIO_Testsome
"""

#: label -> MPI function name (``MPI_Send``...), for labels below ALL_FUNCTIONS.
FUNCTIONS: List[str] = [n if n.startswith("MPIO_") else "MPI_" + n for n in _NAMES.split()]
ALL_FUNCTIONS = len(FUNCTIONS)          # 290: also the footer's last counter
FUNCTION_ENTER = ALL_FUNCTIONS + 1      # user function entry (int64 address)
FUNCTION_EXIT = ALL_FUNCTIONS + 2
END_OF_STREAM = ALL_FUNCTIONS + 3
LABEL = {name: i for i, name in enumerate(FUNCTIONS)}

TYPE_SIZE = {"i": 4, "req": 4, "dt": 2, "comm": 2, "group": 2, "win": 2, "info": 2,
             "file": 2, "op": 1, "u8": 1, "i64": 8}

_P2P_SEND = "count:i datatype:dt dest:i tag:i comm:comm"
_P2P_RECV = "count:i datatype:dt source:i tag:i comm:comm"
_SPEC = {
    "Send Bsend Ssend Rsend": _P2P_SEND,
    "Recv": _P2P_RECV + " status:st",
    "Get_count": "status:st datatype:dt count:i",
    "Buffer_attach Buffer_detach": "size:i",
    "Isend Ibsend Issend Irsend Send_init Bsend_init Ssend_init Rsend_init":
        _P2P_SEND + " request:req",
    "Irecv Recv_init": _P2P_RECV + " request:req",
    "Wait": "request:req status:st",
    "Test": "request:req flag:i status:st",
    "Request_free Cancel Start": "request:req",
    "Waitany": "count:i requests:ia index:i status:st",
    "Testany": "count:i requests:ia index:i flag:i status:st",
    "Waitall": "count:i requests:ia statuses:st",
    "Testall": "count:i requests:ia flag:i statuses:st",
    "Waitsome Testsome": "count:i requests:ia outcount:i indices:ia statuses:st",
    "Iprobe": "source:i tag:i comm:comm flag:i status:st",
    "Probe": "source:i tag:i comm:comm status:st",
    "Test_cancelled": "status:st cancelled:i",
    "Startall": "count:i requests:ia",
    "Sendrecv": "sendcount:i sendtype:dt dest:i sendtag:i recvcount:i recvtype:dt source:i "
                "recvtag:i comm:comm status:st",
    "Sendrecv_replace": "count:i datatype:dt dest:i sendtag:i source:i recvtag:i comm:comm "
                        "status:st",
    "Type_contiguous": "count:i oldtype:dt newtype:dt",
    "Type_vector Type_hvector": "count:i blocklength:i stride:i oldtype:dt newtype:dt",
    "Type_indexed Type_hindexed": "count:i lengths:ia indices:ia oldtype:dt newtype:dt",
    "Type_struct": "count:i lengths:ia indices:ia oldtypes:dta newtype:dt",
    "Address": "address:i",
    "Type_extent": "datatype:dt extent:i",
    "Type_size": "datatype:dt size:i",
    "Type_lb": "datatype:dt lb:i",
    "Type_ub": "datatype:dt ub:i",
    "Type_commit Type_free": "datatype:dt",
    "Get_elements": "status:st datatype:dt elements:i",
    "Barrier": "comm:comm",
    "Bcast": "count:i datatype:dt root:i comm:comm",
    "Gather": "commrank:i sendcount:i sendtype:dt root:i comm:comm recvcount:i? recvtype:dt?",
    "Gatherv": "commrank:i commsize:i sendcount:i sendtype:dt root:i comm:comm recvcounts:ia? "
               "displs:ia? recvtype:dt",
    "Scatter": "commrank:i recvcount:i recvtype:dt root:i comm:comm sendcount:i? sendtype:dt?",
    "Scatterv": "commrank:i commsize:i sendtype:dt recvcount:i recvtype:dt root:i comm:comm "
                "sendcounts:ia? displs:ia?",
    "Allgather Alltoall": "sendcount:i sendtype:dt recvcount:i recvtype:dt comm:comm",
    "Allgatherv": "commsize:i sendcount:i sendtype:dt recvcounts:ia displs:ia recvtype:dt "
                  "comm:comm",
    "Alltoallv": "commsize:i sendcounts:ia senddispls:ia sendtype:dt recvcounts:ia "
                 "recvdispls:ia recvtype:dt comm:comm",
    "Alltoallw": "commsize:i sendcounts:ia senddispls:ia sendtypes:dta recvcounts:ia "
                 "recvdispls:ia recvtypes:dta comm:comm",
    "Reduce": "count:i datatype:dt op:op root:i comm:comm",
    "Op_create": "commute:i op:op",
    "Op_free": "op:op",
    "Allreduce Scan Exscan": "count:i datatype:dt op:op comm:comm",
    "Reduce_scatter": "commsize:i recvcounts:ia datatype:dt op:op comm:comm",
    "Group_size": "group:group size:i",
    "Group_rank": "group:group rank:i",
    "Comm_group": "comm:comm group:group",
    "Comm_size": "comm:comm size:i",
    "Comm_rank": "comm:comm rank:i",
    "Comm_dup": "oldcomm:comm newcomm:comm",
    "Comm_create": "oldcomm:comm group:group newcomm:comm",
    "Comm_split": "oldcomm:comm color:i key:i newcomm:comm",
    "Comm_free": "comm:comm",
    "Init": "argv:argv",
    "Finalize": "",
    "Accumulate": "origincount:i origintype:dt targetrank:i targetdisp:i targetcount:i "
                  "targettype:dt op:op win:win",
    "Get Put": "origincount:i origintype:dt targetrank:i targetdisp:i targetcount:i "
               "targettype:dt win:win",
    "Win_complete Win_free Win_wait": "win:win",
    "Win_create": "size:i dispunit:i info:info comm:comm win:win",
    "Win_fence": "assertion:u8 win:win",
    "Win_get_group": "win:win group:group",
    "Win_lock": "locktype:u8 winrank:i assertion:u8 win:win",
    "Win_post Win_start": "group:group assertion:u8 win:win",
    "Win_test": "win:win flag:i",
    "Win_unlock": "winrank:i win:win",
    # MPI-IO (sst-dumpi dumpi/common/argtypes.h and the order its writers store them in)
    "File_open": "comm:comm filename:str amode:u8 info:info file:file",
    "File_close File_sync": "file:file",
    "File_delete": "filename:str info:info",
    "File_set_size File_preallocate File_get_size": "file:file size:i64",
    "File_get_group": "file:file group:group",
    "File_get_amode": "file:file amode:u8",
    "File_set_info File_get_info": "file:file info:info",
    "File_set_view": "file:file offset:i64 hosttype:dt filetype:dt datarep:str info:info",
    "File_get_view": "file:file offset:i64 hosttype:dt filetype:dt datarep:str",
    "File_read_at File_read_at_all File_write_at File_write_at_all":
        "file:file offset:i64 count:i datatype:dt status:st",
    "File_iread_at File_iwrite_at": "file:file offset:i64 count:i datatype:dt request:req",
    "File_read File_read_all File_write File_write_all File_read_shared File_write_shared "
    "File_read_ordered File_write_ordered": "file:file count:i datatype:dt status:st",
    "File_iread File_iwrite File_iread_shared File_iwrite_shared":
        "file:file count:i datatype:dt request:req",
    "File_seek File_seek_shared": "file:file offset:i64 whence:u8",
    "File_get_position File_get_position_shared": "file:file offset:i64",
    "File_get_byte_offset": "file:file offset:i64 bytes:i64",
    "File_read_at_all_begin File_write_at_all_begin": "file:file offset:i64 count:i datatype:dt",
    "File_read_all_begin File_write_all_begin File_read_ordered_begin "
    "File_write_ordered_begin": "file:file count:i datatype:dt",
    "File_read_at_all_end File_write_at_all_end File_read_all_end File_write_all_end "
    "File_read_ordered_end File_write_ordered_end": "file:file status:st",
    "File_get_type_extent": "file:file datatype:dt extent:i",
    "Register_datarep": "name:str",
    "File_set_atomicity File_get_atomicity": "file:file flag:i",
    "MPIO_Test": "request:req flag:i status:st",
    "MPIO_Wait": "request:req status:st",
    "MPIO_Testall": "count:i requests:ia flag:i statuses:st",
    "MPIO_Waitall": "count:i requests:ia statuses:st",
    "MPIO_Testany": "count:i requests:ia flag:i index:i statuses:st",
    "MPIO_Waitany": "count:i requests:ia index:i statuses:st",
    "MPIO_Waitsome MPIO_Testsome": "count:i requests:ia outcount:i indices:ia statuses:st",
}

#: label -> tuple of (argument, type, root_only)
LAYOUTS: Dict[int, Tuple[Tuple[str, str, bool], ...]] = {}
for _names, _spec in _SPEC.items():
    _fields = tuple((f.split(":")[0], f.split(":")[1].rstrip("?"), f.endswith("?"))
                    for f in _spec.split())
    for _n in _names.split():
        LAYOUTS[LABEL[_n if _n.startswith("MPIO_") else "MPI_" + _n]] = _fields
LAYOUTS[FUNCTION_ENTER] = (("fn", "i64", False),)
LAYOUTS[FUNCTION_EXIT] = (("fn", "i64", False),)

#: DUMPI datatype codes -> sizes used when a trace has no size table (LP64 platforms).
DEFAULT_TYPE_SIZES = (0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8, 16, 0, 8, 8, 1, 0, 0, 8,
                      12, 12, 6, 8, 20)


def header_size(mask: int) -> int:
    """Bytes of a record before its arguments (label and mask included, no perf counters)."""
    return 3 + (2 if mask & THREAD else 0) + (12 if mask & CPU else 0) + (12 if mask & WALL else 0)


def fixed_size(label: int, mask: int) -> int:
    """Total record length when it does not depend on the data, else 0."""
    layout = LAYOUTS.get(label)
    if layout is None or mask & PERF:
        return 0
    size = header_size(mask)
    for _, typ, root_only in layout:
        if root_only or typ not in TYPE_SIZE:
            if typ == "st" and not mask & STATUS:
                continue
            return 0
        size += TYPE_SIZE[typ]
    return size


def fixed_sizes() -> List[int]:
    """:func:`fixed_size` for every ``(label << 8) | mask`` (label up to END_OF_STREAM).

    Built from per-label argument sizes with numpy over the 256 masks (a
    fraction of a millisecond, where calling :func:`fixed_size` 75,000 times
    took a tenth of a second on every import of the decoder).
    """
    masks = np.arange(256)
    head = 3 + 2 * ((masks & THREAD) > 0) + 12 * ((masks & CPU) > 0) + 12 * ((masks & WALL) > 0)
    status = (masks & STATUS) > 0
    perf = (masks & PERF) > 0
    out = np.zeros((END_OF_STREAM + 1, 256), dtype=np.int64)
    for label, layout in LAYOUTS.items():
        args, with_status = 0, True   # size of the arguments; fixed even with statuses?
        fixed = True
        for _, typ, root_only in layout:
            if typ == "st":
                with_status = False
            elif root_only or typ not in TYPE_SIZE:
                fixed = False
            else:
                args += TYPE_SIZE[typ]
        if fixed:
            out[label] = np.where(perf | (status & ~with_status), 0, head + args)
    return out.reshape(-1).tolist()
