"""Many profiles at once: :class:`Ensemble`, composed on one union call tree.

See ``docs/guide/ensembles.md``. The Thicket-compatible names live in
:mod:`graphframe.thicket`.
"""

from .build import EnsembleReadWarning
from .ensemble import Ensemble
from .grouping import EnsembleGroupBy

__all__ = ["Ensemble", "EnsembleGroupBy", "EnsembleReadWarning"]
