"""What this machine has free for a rescore: usable CPUs, and how many are busy now.

:func:`~.parallel.default_workers` asks it whether a second worker process has a
core of its own, and the rescore loop whether a second scan (the value check on a
thread) has one (:data:`~.verdict_loop.FOLD_BELOW_IDLE_CORES`).
"""

from __future__ import annotations

import os
import time


def usable_cpus() -> int:
    """CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


#: How long :func:`busy_now` watches the CPUs (seconds).
SAMPLE_SECONDS = 0.05


def cpu_times(line: str) -> tuple[int, int] | None:
    """(free, total) jiffies from the ``cpu`` line of ``/proc/stat``; None if it is not one.

    Free time is idle, I/O wait and *nice* time: a process at a positive nice value
    (a backup, a niced benchmark) gives way to the rescore's workers (a nice-19
    process gets about 1.5% of a CPU beside one at 0), so it does not make two
    workers slower than one the way a busy CPU does.
    """
    fields = line.split()
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return idle + iowait + nice, user + nice + system + idle + iowait + irq + softirq + steal


def _cpu_times() -> tuple[int, int] | None:
    """:func:`cpu_times` of all CPUs now, or None where there is no ``/proc/stat``."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            return cpu_times(stat.readline())
    except (OSError, ValueError):
        return None


class CpuWatch:
    """The CPUs watched from its making until :func:`busy_now` reads it, while this
    process carries on with work it needs either way (the rescore reads the answer keys
    and labels meanwhile) instead of sleeping through the sample.

    That work is this process's own, and it ends before any worker starts: its CPU
    time over the watch is not counted as load. Should the work take less than
    :data:`SAMPLE_SECONDS`, the read waits out the rest.
    """

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.own_cpu = time.process_time()
        self.first = _cpu_times()


def busy_now(watch: CpuWatch | None = None) -> float | None:
    """CPUs busy right now (over :data:`SAMPLE_SECONDS`), or None where it cannot be seen.

    The 1-minute load average is a poor guide here: it still counts the work that just
    ended (a benchmark's previous run, the command before), and on 2 CPUs that was
    enough to choose one process when two were 1.6x faster.

    Args:
        watch: the CPUs busy since ``watch`` was made, less this process's own CPU
            time since then; ``None`` watches them now (sleeping meanwhile, this
            process's other threads counted).
    """
    own = watch is not None
    watch = watch or CpuWatch()
    first = watch.first
    if first is None:
        return None
    left = SAMPLE_SECONDS - (time.monotonic() - watch.started)
    if left > 0:
        time.sleep(left)
    second = _cpu_times()
    if second is None or second[1] <= first[1]:
        return None
    idle = (second[0] - first[0]) / (second[1] - first[1])
    busy = (1.0 - idle) * (os.cpu_count() or 1)
    if own:
        mine = (time.process_time() - watch.own_cpu) / (time.monotonic() - watch.started)
        busy = max(0.0, busy - mine)
    _sampled[:] = [time.monotonic(), busy]
    return busy


#: The last sample: [monotonic time, CPUs busy] (empty before the first).
_sampled: list[float] = []


def idle_cores(*, sample: bool = True, watch: CpuWatch | None = None) -> float:
    """Usable CPUs minus those busy now (else minus the 1-minute load average; 0 when
    neither is known). With ``sample=False`` it only reuses a sample of the last 2 s
    (a small file's choices are not worth the 50 ms a sample waits); with a ``watch``,
    the CPUs are those busy since it was made (see :func:`busy_now`)."""
    if sample:
        busy = busy_now(watch)
    else:
        fresh = bool(_sampled) and time.monotonic() - _sampled[0] < 2.0
        busy = _sampled[1] if fresh else None
    if busy is None:
        try:
            busy = os.getloadavg()[0]
        except (AttributeError, OSError):
            return 0.0
    return usable_cpus() - busy
