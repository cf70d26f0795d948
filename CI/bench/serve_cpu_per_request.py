#!/usr/bin/env python3
"""Runs `canary-bench serve` once and adds, per request, what the serving thread cost.

Usage: serve_cpu_per_request.py CANARY_BENCH {pinned|split|default} [extra serve options]

  pinned   everything on CPU 0 (`taskset -c 0 canary-bench serve`)
  split    the server (and nginx) on CPU 1, wrk and the sequential client on CPU 0
  default  no pinning

During each `wrk` phase (LoopbackServer's, then nginx's) it waits 1 s, then reads over 3 s the
busiest thread of the benchmark process (our I/O thread) or nginx's worker, and wrk's threads:
user and system time (`/proc/PID/task/TID/stat`, 10 ms ticks) and voluntary and involuntary
context switches (`status`), divided by wrk's rate x the interval. Prints one Markdown row:

| time | placement | load | ours req/s | nginx req/s | ratio | sequential medians | ratio |
  ours user/req | ours system/req | ours involuntary switches/req | nginx user/req | nginx invol./req |

Linux only; needs wrk and nginx installed (as `canary-bench serve` does).
"""

import datetime
import os
import re
import subprocess
import sys
import time


def thread_stats(pid, tid=None):
    """(user ticks, system ticks, voluntary switches, involuntary switches) of a task."""
    base = f"/proc/{pid}/task/{tid}" if tid else f"/proc/{pid}"
    fields = open(f"{base}/stat").read().rsplit(")", 1)[1].split()
    status = open(f"{base}/status").read()
    voluntary = int(re.search(r"\nvoluntary_ctxt_switches:\s+(\d+)", status).group(1))
    involuntary = int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", status).group(1))
    return [int(fields[11]), int(fields[12]), voluntary, involuntary]


def wrk_pid():
    found = subprocess.run(["pgrep", "-x", "wrk"], capture_output=True, text=True).stdout.split()
    return int(found[0]) if found else None


def process_stats(pid):
    total = [0, 0, 0, 0]
    for tid in os.listdir(f"/proc/{pid}/task"):
        total = [a + b for a, b in zip(total, thread_stats(pid, tid))]
    return total


def main():
    bench, placement = sys.argv[1], sys.argv[2]
    extra = sys.argv[3:]
    command = {
        "pinned": ["taskset", "-c", "0", bench, "serve", "--duration", "6s"],
        "split": [bench, "serve", "--duration", "6s", "--server-cpu", "1", "--client-cpu", "0"],
        "default": [bench, "serve", "--duration", "6s"],
    }[placement] + extra
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    measured = {}
    for phase in ["ours", "nginx"]:
        while (wrk := wrk_pid()) is None:
            time.sleep(0.05)
        time.sleep(1.0)
        if phase == "ours":
            tids = os.listdir(f"/proc/{process.pid}/task")
            busiest = max(tids, key=lambda t: sum(thread_stats(process.pid, t)[:2]))
            server = (process.pid, busiest)
        else:
            workers = subprocess.run(["pgrep", "-f", "nginx: worker"], capture_output=True, text=True)
            server = (int(workers.stdout.split()[0]), None)
        before, started = thread_stats(*server), time.time()
        time.sleep(3)
        after, seconds = thread_stats(*server), time.time() - started
        measured[phase] = ([b - a for a, b in zip(before, after)], seconds)
        while wrk_pid() == wrk:
            time.sleep(0.05)
    output = process.communicate()[0]
    rates = [float(x) for x in re.findall(r"wrk -t\d+ -c\d+ -d\S+: (\d+) req/s", output)]
    medians = [float(x) for x in re.findall(r"median ([0-9.]+) ms", output)]
    if len(rates) < 2 or len(medians) < 2:
        sys.exit(f"canary-bench serve did not print both servers' figures:\n{output}")

    def per_request(phase, rate):
        stats, seconds = measured[phase]
        requests = rate * seconds
        return [stats[0] * 1e4 / requests, stats[1] * 1e4 / requests, stats[3] / requests]

    ours = per_request("ours", rates[0])
    nginx = per_request("nginx", rates[1])
    load = open("/proc/loadavg").read().split()[0]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%H:%M:%S")
    print(
        f"| {now} | {placement} | {load} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[0] / rates[1]:.2f} "
        f"| {medians[0]}/{medians[1]} ms | {medians[0] / medians[1]:.2f} | {ours[0]:.2f} µs | {ours[1]:.2f} µs "
        f"| {ours[2]:.3f} | {nginx[0]:.2f} µs | {nginx[2]:.3f} |"
    )


if __name__ == "__main__":
    main()
