"""The limits the trace decoders enforce on hostile input, in one place.

Each limit turns an input that would otherwise take unbounded time or
memory into a :class:`~graphframe_readers.errors.ReadError` naming the file
and the position; docs/readers/traces.md lists them with what each error
means. They are far above what real traces need.

=========================  ==================================================
limit                      where
=========================  ==================================================
:data:`MAX_EVENT_BYTES`    one Chrome event (its strings included)
:data:`MAX_EVENT_TOKENS`   structural characters of one Chrome event
:data:`MAX_ITEM_BYTES`     one line of a text log or definitions file
                           (Projections logs and ``.sts``, DUMPI ``.meta``)
:data:`MAX_RATIO`          gzip input: inflated bytes per compressed byte,
                           checked once :data:`RATIO_FLOOR` bytes came out
:data:`INFLATE_BLOCK`      gzip input is inflated at most this much at a time
=========================  ==================================================

Examples
--------
>>> MAX_EVENT_BYTES >> 20, MAX_ITEM_BYTES >> 20, MAX_RATIO, RATIO_FLOOR >> 20
(64, 256, 200, 16)
"""

from __future__ import annotations

#: The largest line of a text log or definitions file, in bytes.
MAX_ITEM_BYTES = 256 << 20
#: The largest Chrome trace event (an object with its strings), in bytes.
MAX_EVENT_BYTES = 64 << 20
#: The most structural characters (``{}[],:"``) of one Chrome event: nested ``args``
#: (scanning costs about 45 bytes of memory per structural character).
MAX_EVENT_TOKENS = 1 << 22
#: The largest ratio of inflated to compressed bytes accepted in gzip input
#: (real text logs compress 3-30 times; a bomb of zeros ~1000 times).
MAX_RATIO = 200
#: Inflated bytes before :data:`MAX_RATIO` applies (small files may compress better).
RATIO_FLOOR = 16 << 20
#: Most bytes one inflate step hands on (memory stays bounded whatever the ratio).
INFLATE_BLOCK = 8 << 20
