"""JVM garbage-collection logs (HotSpot unified logging, GraalVM): a streaming decoder.

See :mod:`.decoder` for what is read and :mod:`.parse` for how.
"""

from .batch import GcBatch
from .decoder import GcLogWarning, JvmGcDecoder, log_files
from .rotation import RotatedSource, group_logs

DECODER = JvmGcDecoder

__all__ = ["DECODER", "GcBatch", "GcLogWarning", "JvmGcDecoder", "RotatedSource",
           "group_logs", "log_files"]
