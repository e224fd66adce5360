"""Deterministic ways to damage a file's bytes, for the decoder checks.

Pure functions of bytes (and a seed): where to cut, which bytes to flip,
where to put a byte that is never valid UTF-8, and hostile inputs (a gzip
bomb, a huge run inside a string). The same arguments always give the same
bytes, so a failing case can be rebuilt from its name.

Examples
--------
>>> cut_points(100, 4)
[1, 33, 66, 99]
>>> flip(b"abcd", 1)
b'a\\x9dcd'
>>> invalid_utf8(b"ab cd", 3)
b'ab \\xffd'
>>> import gzip
>>> len(gzip.decompress(gzip_bomb(1 << 20, b"0")))
1048576
"""

from __future__ import annotations

import random
import zlib
from typing import List

#: A byte that never occurs in UTF-8 text.
NOT_UTF8 = 0xFF


def cut_points(size: int, count: int) -> List[int]:
    """``count`` distinct lengths to cut a ``size``-byte file to: the first byte, the
    last byte missing, and evenly spaced points between (fewer for tiny files)."""
    if size <= 1:
        return [0] if size == 1 else []
    if count <= 1:
        return [size // 2]
    points = [1 + (size - 2) * k // (count - 1) for k in range(count)]
    return sorted(set(points))


def flip_positions(size: int, count: int, seed: int) -> List[int]:
    """``count`` distinct byte offsets below ``size`` (seeded; sorted)."""
    rng = random.Random(seed)
    return sorted(rng.sample(range(size), min(count, size)))


def flip(data: bytes, at: int) -> bytes:
    """``data`` with every bit of the byte at ``at`` inverted (``b"b"`` -> ``b"\\x9d"``)."""
    out = bytearray(data)
    out[at] ^= 0xFF
    return bytes(out)


def text_positions(data: bytes, count: int) -> List[int]:
    """``count`` offsets of non-blank ASCII bytes, spread evenly over the text."""
    good = [i for i, b in enumerate(data) if 0x21 <= b < 0x7F]
    if not good:
        return []
    if count >= len(good):
        return good
    return [good[(len(good) - 1) * k // max(count - 1, 1)] for k in range(count)]


def invalid_utf8(data: bytes, at: int) -> bytes:
    """``data`` with the byte at ``at`` replaced by 0xFF (never valid in UTF-8)."""
    out = bytearray(data)
    out[at] = NOT_UTF8
    return bytes(out)


def gzip_member(data: bytes) -> bytes:
    """``data`` as one gzip member (level 9)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


def gzip_bomb(inflated: int, pattern: bytes = b"\0", *, chunk: int = 1 << 20) -> bytes:
    """A gzip file that inflates to ``inflated`` bytes of ``pattern`` repeated.

    Built as the same member (``chunk`` bytes inflated) repeated: a 4 GiB bomb
    of zeros is about 4 MB and takes milliseconds to make. Multi-member gzip
    files are valid gzip (``gzip -d`` inflates every member).
    """
    unit = pattern * max(chunk // len(pattern), 1)    # a whole number of patterns
    whole, rest = divmod(inflated, len(unit))
    return gzip_member(unit) * whole + (gzip_member(unit[:rest]) if rest else b"")


def insert_run(data: bytes, at: int, length: int, byte: bytes = b"x") -> bytes:
    """``data`` with ``length`` copies of ``byte`` inserted at offset ``at``."""
    return data[:at] + byte * length + data[at:]
