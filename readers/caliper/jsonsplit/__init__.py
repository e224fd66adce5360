"""Caliper json-split: ``reader`` (the format), ``fast`` (block decoder of the usual
layout over a memory-mapped file), ``cells`` (typed cells), ``sniff`` (recognition)."""
