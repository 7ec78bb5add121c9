"""The machine's fork cost at this hour, for the benchmarks to print beside their figures.

A bare Python interpreter forks a child that exits at once, N times (argv[1], default 300), and
prints one JSON line: CPU milliseconds per fork and exit (user + system of this process and of
its reaped children, from getrusage) and the minor page faults of each side. A clean process per
candidate costs at least this much; on virtual machines it varies from hour to hour (page faults
are what it is mostly made of), so the benchmarks report it rather than assume it."""

import json
import os
import resource
import sys


def usage():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, s.ru_minflt, c.ru_minflt


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    # A few forks first: the first ones fault in the pages of this loop itself.
    for _ in range(5):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    a = usage()
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    b = usage()
    print(json.dumps({
        "forks": n,
        "cpuMsPerFork": round((b[0] - a[0] + b[1] - a[1]) * 1000 / n, 3),
        "parentCpuMs": round((b[0] - a[0]) * 1000 / n, 3),
        "childCpuMs": round((b[1] - a[1]) * 1000 / n, 3),
        "parentFaults": round((b[2] - a[2]) / n, 1),
        "childFaults": round((b[3] - a[3]) / n, 1),
    }))


main()
