"""Chrome / Perfetto trace-event JSON (decoder filled in by the next commit)."""

from __future__ import annotations

from pathlib import Path

from .decoder import Decoder


class ChromeDecoder(Decoder):
    """Chrome trace-event JSON: the array form or ``{"traceEvents": [...]}``."""

    format_name = "chrome"
    description = "Chrome/Perfetto trace-event JSON (viztracer, Caliper, PyTorch...)"

    @classmethod
    def sniff(cls, path: Path, head: bytes) -> bool:
        text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if text[:1] == b"{":
            return b'"traceEvents"' in head
        return text[:1] == b"[" and b'"ph"' in head


DECODER = ChromeDecoder
