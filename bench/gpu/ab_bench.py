#!/usr/bin/env python3
"""ab_bench.py: an A/B measurement of two runtimes + artifact sets on the GPU
machine in one process pair: each side is one `fuser-run --serve MANIFEST`
(tools/fuser-run/serve.c) that loads all its artifacts, makes their inputs
and checks them once, then answers timing requests. The requests alternate
between the sides fusion by fusion, round after round (the first side of a
pair alternates too, A B then B A), so both see the same machine state, and
no measurement pays a driver start or an input generation (session 5: ~7 s
per `fuser-run --artifact F --bench N`, most of it set-up, which left
host_ab.sh 7 of 14 fusions in its 105 s and ab_run.sh one sample per side).

    python3 bench/gpu/ab_bench.py --side base=FUSER_RUN:MANIFEST --side new=FUSER_RUN:MANIFEST
        [--mode bench|host] [--calls N] [--rounds R] [--restart-every K] [--zero-inputs] [--worker-arg A]
        [--deadline S] [--cpus LIST] [--out DIR] [--dry-run]

--mode bench asks each side `bench NAME N` (fuser-run --bench's JSON line:
CUDA-graph time, events, host time, copy bandwidth); --mode host asks
`host NAME N` (host time per call only: median of N calls). Every sample is
appended, with "side", "round" and "proc" (which process pair), to
OUT/<side>.jsonl; bench/gpu/compare_base.py reads the two files and reports
medians, the measured spread and the verdict. --restart-every K starts a new
pair of processes after every K rounds (the spread then includes what
differs between processes: allocation addresses, the CPU the driver's
threads landed on). --cpus runs both sides under `taskset -c LIST` (the
same cores for both: they never run at the same time). No round starts after
--deadline seconds (what was measured is kept). The workers' start-up output
(variants, checksums, check: lines) goes to OUT/<side>.log. --dry-run prints
the commands and the request order and runs nothing."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def read_manifest(path):
    names = []
    with open(path) as f:
        for line in f:
            t = line.split()
            if t and not t[0].startswith("#"):
                names.append(t[0])
    return names


def cpu_list(text):
    """'2-5,8' -> {2, 3, 4, 5, 8}"""
    cpus = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def pinning(text):
    """The taskset prefix for --cpus: only the CPUs this process may use (a
    machine with fewer gets fewer, none: no pinning, said once)."""
    if not text or not shutil.which("taskset"):
        return []
    cpus = sorted(cpu_list(text) & os.sched_getaffinity(0))
    if not cpus:
        print(f"ab_bench: none of the CPUs {text} is available here: not pinned", flush=True)
        return []
    return ["taskset", "-c", ",".join(map(str, cpus))]


class Worker:
    """One `fuser-run --serve` process: started, read until "ready N"."""

    def __init__(self, side, cmd, log):
        self.side = side
        self.log = log
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)

    def wait_ready(self):
        for line in self.p.stdout:
            self.log.write(line)
            if line.startswith("ready "):
                self.log.flush()
                return int(line.split()[1])
        raise RuntimeError(f"{self.side}: fuser-run --serve ended before it was ready (exit {self.p.wait()})")

    def ask(self, request):
        self.p.stdin.write(request + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.side}: fuser-run --serve ended (exit {self.p.wait()}) at '{request}'")
        try:
            return json.loads(line)
        except ValueError:  # e.g. "inf" GB/s from a driver whose kernels take no time (the fake libcuda)
            return dict(case=request.split()[1], error=f"unparsed: {line.strip()}"[:300])

    def close(self):
        if self.p.stdin:
            self.p.stdin.close()
        rest = self.p.stdout.read()
        self.log.write(rest)
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--side", action="append", required=True, help="NAME=FUSER_RUN:MANIFEST (twice)")
    ap.add_argument("--mode", choices=["bench", "host"], default="bench")
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--restart-every", type=int, default=0)
    ap.add_argument("--zero-inputs", action="store_true")
    ap.add_argument("--worker-arg", action="append", default=[], help="one more fuser-run --serve option (e.g. --no-fetch)")
    ap.add_argument("--deadline", type=float, default=0)
    ap.add_argument("--cpus", default="")
    ap.add_argument("--out", default="ab-bench")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    sides = []
    for s in a.side:
        name, rest = s.split("=", 1)
        run, manifest = rest.split(":", 1)
        sides.append((name, run, manifest))
    if len(sides) != 2:
        sys.exit("ab_bench: give exactly two --side")
    for _, _, m in sides:
        if not os.path.isfile(m):
            sys.exit(f"ab_bench: error: no manifest {m}")
    names = [read_manifest(m) for _, _, m in sides]
    common = [n for n in names[1] if n in set(names[0])]
    only = sorted(set(names[0]) ^ set(names[1]))
    pin = pinning(a.cpus)
    cmds = [pin + [run, "--serve", manifest] + (["--zero-inputs"] if a.zero_inputs else []) + a.worker_arg
            for _, run, manifest in sides]
    per_proc = a.restart_every if a.restart_every > 0 else a.rounds
    if a.dry_run:
        for (name, _, _), cmd in zip(sides, cmds):
            print(f"{name}: {' '.join(cmd)}")
        print(f"{len(common)} fusions in both manifests, {a.rounds} rounds, {a.mode} {a.calls} calls, "
              f"a new process pair every {per_proc} rounds; only in one: {', '.join(only) or 'none'}")
        for r in range(min(a.rounds, 2)):
            order = [0, 1] if r % 2 == 0 else [1, 0]
            print(f"round {r}: " + " ".join(f"{sides[i][0]}:{n}" for n in common[:3] for i in order) + " ...")
        return 0
    os.makedirs(a.out, exist_ok=True)
    start = time.time()
    files = [open(os.path.join(a.out, f"{name}.jsonl"), "a") for name, _, _ in sides]
    logs = [open(os.path.join(a.out, f"{name}.log"), "a") for name, _, _ in sides]
    rounds_done = 0
    proc = 0
    workers = []
    try:
        while rounds_done < a.rounds and not (a.deadline and time.time() - start > a.deadline):
            t0 = time.time()
            workers = [Worker(name, cmd, log) for (name, _, _), cmd, log in zip(sides, cmds, logs)]
            ready = [w.wait_ready() for w in workers]
            print(f"ab_bench: process pair {proc} ready in {time.time() - t0:.1f} s ({ready[0]} and {ready[1]} artifacts)",
                  flush=True)
            for r in range(rounds_done, min(rounds_done + per_proc, a.rounds)):
                if a.deadline and time.time() - start > a.deadline:
                    print(f"ab_bench: deadline ({a.deadline:.0f} s) before round {r}", flush=True)
                    break
                order = [0, 1] if r % 2 == 0 else [1, 0]
                for n in common:
                    for i in order:
                        row = workers[i].ask(f"{a.mode} {n} {a.calls}")
                        row.update(side=sides[i][0], round=r, proc=proc)
                        files[i].write(json.dumps(row) + "\n")
                rounds_done = r + 1
                for f in files:
                    f.flush()
            for w in workers:
                w.close()
            workers = []
            proc += 1
    except RuntimeError as e:  # a worker that ended: what was measured stays in OUT
        print(f"ab_bench: error: {e}", flush=True)
        for w in workers:
            w.p.kill()
        return 1
    finally:
        for f in files + logs:
            f.close()
    print(f"ab_bench: {rounds_done} rounds of {len(common)} fusions ({a.mode}, {a.calls} calls) in {time.time() - start:.1f} s;"
          f" only in one manifest: {', '.join(only) or 'none'}", flush=True)
    return 0 if rounds_done else 1


if __name__ == "__main__":
    sys.exit(main())
