"""Writers that turn a RawProfile into files of the formats the readers read.

One module per format, named after it (hyphens become underscores) and
defining ``write_<format>(raw, path)``; ``python -m benchmarks.generate``
finds them by that name. They make test and benchmark inputs of any size.
"""
