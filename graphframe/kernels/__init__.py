"""Numerical kernels: numpy-only building blocks that operations call.

A kernel takes arrays or plain pandas objects and returns arrays or frames;
it knows nothing about GraphFrames, graphs or rendering, so any operation
(one profile's ranks, an ensemble's runs) can reuse it.
"""
