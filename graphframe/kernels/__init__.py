"""Array algorithms on graph structure, shared by the model and the operations.

Everything here takes and returns numpy arrays of integer node ids and
knows nothing about Graph, GraphFrame or pandas: CSR building, depths,
pre- and post-orders (:mod:`~graphframe.kernels.structure`), call-path
interning and nearest kept ancestors (:mod:`~graphframe.kernels.paths`),
merging equal children over every edge (:mod:`~graphframe.kernels.congruence`).
"""
