"""Writers that turn a RawProfile into files of the formats graphframe reads (for large test inputs)."""
