"""Benchmarks: input generators, format writers and the timing runner (run on demand)."""
