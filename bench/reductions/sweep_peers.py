"""torch.compile's column of the row-length sweep (bench/gpu/reductions.sh),
made to fit one device call. peers.py (../shared/bench) spends its time on
what the sweep does not need: a float64 eager reference of every 1 GB case,
eager timing, 50 repeats, and each case's Inductor compile one after the
other (about 30 s apiece: 12 cases did not fit a 250 s step). Here every
case runs in its own process, all of them at once (--jobs at a time):
  1. under the GPU lock (an flock on --lock, which fuser's timing in
     reductions.sh holds too): the script builds its inputs on the GPU;
  2. outside it: the Inductor compile (CPU work; the first call runs the
     kernels once, a few milliseconds of GPU);
  3. under the lock again: CUDA-graph time only, --reps repeats of --inner
     calls (peers.py's `timed`).
So the compiles overlap each other and fuser's timing, and nothing else
touches the GPU while a case (ours or theirs) is timed. The parent measures
the copy bandwidth first (under the lock, as peers.py does) and prints one
JSON line per case in peers.py's format (case, in_MB, out_MB,
compile_graph_us, compile_us, plus compile_s: the compile's wall time),
in the order given, which bench/plot_sweep.py reads.

Usage (from the carried folder that holds peers.py and nvfuser_torch.py):
  python3 sweep_peers.py [--jobs J] [--reps R] [--inner I] [--lock FILE] SCRIPT...
  python3 sweep_peers.py --case SCRIPT [--reps R] [--inner I] [--lock FILE]   (one case; what each process runs)"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # bench/ in the tree
from gpu_lock import gpu_lock  # noqa: E402  (beside this file in a carried folder)


def nbytes(ts):
    import torch
    return sum(t.numel() * t.element_size() for t in ts if isinstance(t, torch.Tensor))


def one_case(path, reps, inner, lock):
    import torch
    import nvfuser_torch
    import peers
    nvfuser_torch.install()
    torch._dynamo.config.recompile_limit = 64
    with gpu_lock(lock):
        ns = {}
        exec(compile(open(path).read(), path, "exec"), ns)  # the script's inputs (and its fd.execute)
        torch.cuda.synchronize()
    fd, inputs = ns["fd"], ns["inputs"]

    def fusion(*xs):
        return fd.run(list(xs))

    t0 = time.time()
    comp = torch.compile(fusion, dynamic=False)
    outs = comp(*inputs)
    torch.cuda.synchronize()
    row = dict(case=os.path.basename(path), in_MB=nbytes(inputs) / 1e6, out_MB=nbytes(outs) / 1e6,
               compile_s=time.time() - t0)
    with gpu_lock(lock):
        row["compile_us"], row["compile_graph_us"] = peers.timed(lambda: comp(*inputs), reps=reps, inner=inner)
    return row


def main(argv):
    jobs, reps, inner, lock, case, paths = 12, 10, 5, "", None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--jobs", "--reps", "--inner", "--lock", "--case"):
            v = argv[i + 1]
            if a == "--jobs": jobs = int(v)
            elif a == "--reps": reps = int(v)
            elif a == "--inner": inner = int(v)
            elif a == "--lock": lock = v
            else: case = v
            i += 2
            continue
        paths.append(a)
        i += 1
    if case:
        try:
            row = one_case(case, reps, inner, lock)
        except Exception as e:  # a case the stand-in cannot run: say so and go on
            row = dict(case=os.path.basename(case), error=f"{type(e).__name__}: {e}"[:300])
        print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
        return 0
    env = dict(os.environ)
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")  # the cases compile side by side: one thread each
    child = [sys.executable, os.path.abspath(__file__), "--reps", str(reps), "--inner", str(inner), "--lock", lock]
    procs, started = {}, 0

    def start(p):
        procs[p] = subprocess.Popen(child + ["--case", p], stdout=subprocess.PIPE, text=True, env=env)

    while started < min(jobs, len(paths)):
        start(paths[started])
        started += 1
    import torch
    import peers
    with gpu_lock(lock):
        big = torch.empty(2 * 1024**3, dtype=torch.uint8, device="cuda")
        big2 = torch.empty_like(big)
        t, _ = peers.timed(lambda: big2.copy_(big), reps=10, inner=1)
        print(json.dumps(dict(copy_TBps=round(2 * big.numel() / t / 1e6, 3), gpu=torch.cuda.get_device_name())), flush=True)
        del big, big2
        torch.cuda.empty_cache()
    for p in paths:
        out, _ = procs[p].communicate()
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        print(lines[-1] if lines else json.dumps(dict(case=os.path.basename(p), error=f"exit {procs[p].returncode}")), flush=True)
        if started < len(paths):
            start(paths[started])
            started += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
