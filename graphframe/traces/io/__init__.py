"""I/O analysis of traces: what a file access is (:mod:`.access`), the per-run
:class:`~.view.IOView` and the I/O questions of one-sided traces (:mod:`.rma`)."""
