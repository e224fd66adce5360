"""Run one function in a child process under a time and a memory limit.

:func:`run_isolated` forks, sets ``RLIMIT_AS`` in the child (the child's
address space may grow by ``memory`` bytes beyond what it inherited) and
``RLIMIT_CPU``, calls the function and sends back what happened as an
:class:`Outcome`: the value returned, the exception raised (its class, its
message and, for a :class:`~graphframe_readers.errors.ReadError`, its
``source``/``position``), ``"timeout"`` when the wall-clock limit passed
(the child is killed), ``"memory"`` for a :class:`MemoryError` and
``"crash"`` when the child died without a word (a signal, a C-level abort).

The child is a fork of the caller, so whatever the caller imported is
there at no cost; the function and its arguments are not pickled, only
the result is. POSIX only (``os.fork``, :mod:`resource`).

Examples
--------
>>> run_isolated(sum, [1, 2, 3]).value
6
>>> out = run_isolated(int, "x")
>>> out.status, out.error_type
('error', 'ValueError')
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional

#: Default wall-clock limit of one case (seconds).
TIME_LIMIT = 20.0
#: Default memory a case may add to what it inherits (bytes).
MEMORY_LIMIT = 2 << 30


@dataclass
class Outcome:
    """What happened to one isolated call.

    ``status`` is ``"ok"`` (``value`` holds the result), ``"error"`` (an
    exception: ``error_type``, ``message``, ``is_read_error``, and for read
    errors ``source`` and ``position``), ``"memory"``, ``"timeout"`` or
    ``"crash"``. ``seconds`` is the wall-clock time of the call.
    """

    status: str
    value: Any = None
    error_type: str = ""
    message: str = ""
    is_read_error: bool = False
    source: Optional[str] = None
    position: Optional[str] = None
    traceback: str = ""
    seconds: float = 0.0
    warnings: tuple = ()

    def describe(self) -> str:
        """One line for an assertion message."""
        if self.status == "ok":
            return f"read without an error ({self.seconds:.2f} s)"
        if self.status == "error":
            return f"{self.error_type}: {self.message}"
        return f"{self.status} after {self.seconds:.1f} s"


def run_isolated(func: Callable[..., Any], *args: Any, time_limit: float = TIME_LIMIT,
                 memory_limit: int = MEMORY_LIMIT, **kwargs: Any) -> Outcome:
    """Call ``func(*args, **kwargs)`` in a forked child under the limits.

    Parameters
    ----------
    func : callable
        Runs in the child; its return value must pickle.
    time_limit : float
        Seconds of wall-clock time before the child is killed (``"timeout"``);
        CPU time is limited to the same plus one second.
    memory_limit : int
        Bytes of address space the child may add to its inherited size
        (``RLIMIT_AS``); going past it is ``"memory"``.

    Returns
    -------
    Outcome
    """
    read_fd, write_fd = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(func, args, kwargs, write_fd, time_limit, memory_limit)
    os.close(write_fd)
    data = bytearray()
    deadline = start + time_limit
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(read_fd)
        if timed_out:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
    seconds = time.monotonic() - start
    if timed_out:
        return Outcome("timeout", seconds=seconds)
    try:
        outcome = pickle.loads(bytes(data))
    except Exception:  # noqa: BLE001 - the child died before sending a whole result
        signalled = os.WIFSIGNALED(status)
        if signalled and os.WTERMSIG(status) == signal.SIGXCPU:
            return Outcome("timeout", seconds=seconds)
        how = f"signal {os.WTERMSIG(status)}" if signalled else f"exit {os.WEXITSTATUS(status)}"
        return Outcome("crash", message=f"the child process ended with {how}",
                       seconds=seconds)
    outcome.seconds = seconds
    return outcome


def _child(func, args, kwargs, write_fd, time_limit, memory_limit) -> None:
    code = 0
    try:
        import resource
        import warnings

        size = _address_space()
        limit = size + int(memory_limit)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu = int(time_limit) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = func(*args, **kwargs)
                outcome = Outcome("ok", value=value)
            except MemoryError:
                outcome = Outcome("memory", message="MemoryError")
            except BaseException as exc:  # noqa: BLE001 - every exception is reported
                outcome = _error(exc)
        outcome.warnings = tuple(f"{w.category.__name__}: {w.message}" for w in caught)
        try:
            payload = pickle.dumps(outcome)
        except Exception as exc:  # noqa: BLE001 - an unpicklable value
            payload = pickle.dumps(Outcome("error", error_type="PicklingError",
                                           message=f"the result does not pickle: {exc}"))
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view):]
    except BaseException:  # noqa: BLE001 - the child must reach os._exit
        code = 3
    finally:
        os._exit(code)


def _error(exc: BaseException) -> Outcome:
    from ..errors import ReadError

    read = isinstance(exc, ReadError)
    return Outcome("error", error_type=type(exc).__name__, message=str(exc),
                   is_read_error=read, source=getattr(exc, "source", None) if read else None,
                   position=getattr(exc, "position", None) if read else None,
                   traceback="".join(traceback.format_exception(exc))[-4000:])


def _address_space() -> int:
    """This process's virtual size in bytes (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0
