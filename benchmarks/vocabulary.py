"""Function names for generated profiles: a vocabulary with a realistic skew.

A real calling-context tree repeats a small set of names everywhere (MPI
calls, ``memcpy``, math kernels) and has a long tail of application
functions that each appear in a few contexts. The vocabulary puts the
library names first and the application names after them; :func:`draw`
picks entries with a Zipf-like law over that order, so low entries recur in
many call paths.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MPI = ("MPI_Allreduce", "MPI_Waitall", "MPI_Isend", "MPI_Irecv", "MPI_Barrier",
       "MPI_Bcast", "MPI_Alltoall", "MPI_Reduce", "MPI_Wait", "MPI_Gather")
LIBRARY = ("memcpy", "malloc", "free", "memset", "pthread_mutex_lock", "sqrt", "exp",
           "dgemm_", "daxpy_", "ddot_", "omp_get_thread_num", "__GI___poll")
VERBS = ("compute", "update", "apply", "exchange", "solve", "assemble", "reduce", "pack",
         "unpack", "init", "finalize", "read", "write", "copy", "scale", "interpolate",
         "restrict", "prolong", "smooth", "sort", "build", "check", "advance", "integrate",
         "project")
NOUNS = ("fluxes", "halo", "matrix", "vector", "residual", "boundary", "mesh", "grid",
         "particles", "forces", "stress", "density", "pressure", "velocity", "energy",
         "coeffs", "buffers", "ghosts", "faces", "cells", "edges", "levels", "blocks",
         "tiles", "fields", "stats", "timers", "checkpoint", "state", "rhs")
MODULES = ("solver", "mesh", "comm", "io", "physics", "linalg", "util", "driver")
#: The root's name.
ROOT = "main"
#: Names used along deep chains (recursive solvers call themselves).
RECURSIVE = ("mg_vcycle", "tree_descend", "amr_refine_level")
#: Hot kernels at the bottom of the deep chains.
KERNELS = ("dgemm_", "daxpy_", "ddot_")
#: One application entry in LOOP_EVERY is a loop rather than a function.
LOOP_EVERY = 9


@dataclass(frozen=True)
class Vocabulary:
    """Per-entry name, frame type, source file and line.

    ``library`` entries (indices below :attr:`n_library`) are MPI and system
    functions: leaves in real profiles, called from everywhere.
    """

    names: np.ndarray
    types: np.ndarray
    files: np.ndarray
    lines: np.ndarray
    n_library: int

    def __len__(self) -> int:
        return len(self.names)

    @property
    def n_mpi(self) -> int:
        """Entries ``0 .. n_mpi-1`` are MPI calls."""
        return len(MPI)

    @property
    def root_code(self) -> int:
        """Entry index of :data:`ROOT`."""
        return self.n_library

    def recursive_codes(self) -> np.ndarray:
        """Entry indices of the :data:`RECURSIVE` names."""
        return np.arange(self.n_library + 1, self.n_library + 1 + len(RECURSIVE))

    def kernel_codes(self) -> np.ndarray:
        """Entry indices of the :data:`KERNELS` (library entries)."""
        names = list(self.names[:self.n_library])
        return np.array([names.index(k) for k in KERNELS])


def make_vocabulary(size: int, rng: np.random.Generator) -> Vocabulary:
    """A vocabulary of at least ``size`` entries (library names first).

    Only the vocabulary is built entry by entry (its size is a fraction of
    the node count); per-node data is taken from it with array indexing.

    Examples
    --------
    >>> v = make_vocabulary(40, np.random.default_rng(0))
    >>> len(v), v.names[0], v.types[0], v.files[0]
    (40, 'MPI_Allreduce', 'function', 'libmpi.so')
    """
    base = list(MPI) + list(LIBRARY)
    n_lib = len(base)
    special = [ROOT, *RECURSIVE]
    size = max(int(size), n_lib + len(special) + 1)
    names = base + special
    files = ["libmpi.so"] * len(MPI) + ["libc.so"] * len(LIBRARY)
    files += [f"src/driver/{name}.c" for name in special]
    types = ["function"] * len(names)
    combos = [f"{v}_{n}" for n in NOUNS for v in VERBS]
    perm = rng.permutation(len(combos))
    k = 0
    while len(names) < size:
        combo = combos[perm[k % len(combos)]]
        rounds = k // len(combos)
        module = MODULES[k % len(MODULES)]
        if k % LOOP_EVERY == LOOP_EVERY - 1:
            line = 100 + (k * 37) % 4000
            names.append(f"loop@{module}/{combo}.c:{line}")
            types.append("loop")
        else:
            names.append(combo if rounds == 0 else f"{combo}_{rounds}")
            types.append("function")
        files.append(f"src/{module}/{combo}.c")
        k += 1
    lines = rng.integers(10, 5000, size=len(names))
    lines[:n_lib] = 0
    return Vocabulary(np.array(names, dtype=object), np.array(types, dtype=object),
                      np.array(files, dtype=object), lines.astype(np.int64), n_lib)


def draw(vocab: Vocabulary, count: int, rng: np.random.Generator,
         exponent: float = 1.1, library: bool = True) -> np.ndarray:
    """``count`` entry indices, entry ``k`` with weight ``1 / (k + 2) ** exponent``.

    ``library=False`` leaves out the library entries (for the top levels of
    a program: ``main`` calls the application's phases).

    Examples
    --------
    >>> v = make_vocabulary(100, np.random.default_rng(0))
    >>> codes = draw(v, 1000, np.random.default_rng(1))
    >>> bool((codes < 22).mean() > 0.3), int(codes.max()) < 100
    (True, True)
    """
    weights = 1.0 / (np.arange(len(vocab)) + 2.0) ** exponent
    # the root and the recursive names belong to fixed places, not random call sites
    weights[vocab.root_code] = 0.0
    weights[vocab.recursive_codes()] = 0.0
    if not library:
        weights[:vocab.n_library] = 0.0
    cdf = np.cumsum(weights)
    cdf /= cdf[-1]
    return np.minimum(np.searchsorted(cdf, rng.random(count), side="right"), len(vocab) - 1)
