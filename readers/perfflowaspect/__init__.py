"""PerfFlowAspect traces read as Hatchet reads them: one node per call (:mod:`.reader`)."""

from .reader import FORMAT, read_perfflowaspect

__all__ = ["FORMAT", "read_perfflowaspect"]
