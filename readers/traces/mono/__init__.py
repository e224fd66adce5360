"""The Mono log profiler's ``.mlpd`` files, decoded in four replaceable layers.

1. :mod:`.blocks`: the file header and the buffers, read a block at a time
   from any byte source (a file, a gzip file inflated as a stream, a file
   still being written);
2. :mod:`.decode`: buffers -> events (numpy over whole buffers; the few
   events with strings one at a time, :mod:`.slow`);
3. :mod:`.handler`: the handler interface, one method per event kind
   (:mod:`.kinds`); :mod:`.model` is the default handler (the object model
   and the statistics mprof-report prints);
4. processing: :mod:`.tree` (call and sample trees as a profile),
   :mod:`.summary` (mprof-report's section tables), :mod:`.report`.

See ``docs/readers/mono.md``.
"""
