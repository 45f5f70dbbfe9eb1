#!/usr/bin/env python3
"""One timed run for scripts/throughput.sh: INPUT OUTPUT COMMAND...

Runs COMMAND with stdin from INPUT and stdout to OUTPUT (stderr passed
on), and prints "wall_ns cpu_ns exit_code": the wall time from just before
the process is spawned to just after it is reaped, and its CPU time (user
and system, its threads and children included) from wait4's rusage. Only
the program is timed: this interpreter starts before the clock does.
"""

import os
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    source, sink, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    stdin = os.open(source, os.O_RDONLY)
    stdout = os.open(sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    actions = [(os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, stdout, 1)]
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(command[0], command, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    end = time.perf_counter_ns()
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e9)
    print(end - start, cpu, os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
