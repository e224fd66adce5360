"""Array algorithms shared by the model and the operations.

Everything here takes and returns numpy arrays (or plain pandas objects) and
knows nothing about Graph, GraphFrame or rendering: CSR building, depths,
pre- and post-orders (:mod:`~graphframe.kernels.structure`), call-path
interning and nearest kept ancestors (:mod:`~graphframe.kernels.paths`),
merging equal children over every edge (:mod:`~graphframe.kernels.congruence`),
statistics over the samples of each group of rows
(:mod:`~graphframe.kernels.level_stats`, :mod:`~graphframe.kernels.block_stats`),
so that one profile's ranks and an ensemble's runs share one core.
"""
