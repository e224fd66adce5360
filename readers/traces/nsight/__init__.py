"""Nsight Systems traces: the SQLite export (:mod:`.sqlite_export`: CUDA API, kernels,
memory copies, NVTX ranges, OS runtime) and the NVTX CSV export (:mod:`.csv_export`)."""

from .csv_export import NsightNvtxCsvDecoder
from .sqlite_export import Lanes, NsightDecoder

__all__ = ["Lanes", "NsightDecoder", "NsightNvtxCsvDecoder"]
