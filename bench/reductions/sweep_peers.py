"""torch.compile's column of the row-length sweep (bench/gpu/reductions.sh),
made to fit one device call. peers.py (../shared/bench) spends its time on
what the sweep does not need: a float64 eager reference of every 1 GB case,
eager timing, 50 repeats, and each case's Inductor compile one after the
other. Here:
  1. --warm: every case compiled and run once in its own process, several
     at a time (the machine's CPU cores compile; the GPU only runs each
     case once), which fills Inductor's on-disk FX graph and Triton caches;
  2. the cases then timed one after the other in one process (the compiles
     now hit the caches): CUDA-graph time only, --reps repeats of --inner
     calls (peers.py's `timed`), the copy bandwidth measured first as
     peers.py does.
Prints one JSON line per case in peers.py's format (case, in_MB, out_MB,
compile_graph_us, compile_us), which bench/plot_sweep.py reads.

Usage (from the carried folder that holds peers.py and nvfuser_torch.py):
  python3 sweep_peers.py [--jobs J] [--reps R] [--inner I] SCRIPT...
  python3 sweep_peers.py --warm SCRIPT     (one case; what step 1 runs)"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.getcwd())


def load_case(path):
    ns = {}
    exec(compile(open(path).read(), path, "exec"), ns)
    return ns["fd"], ns["inputs"]


def compiled(path):
    import torch
    fd, inputs = load_case(path)
    torch._dynamo.reset()

    def fusion(*xs):
        return fd.run(list(xs))

    comp = torch.compile(fusion, dynamic=False)
    outs = comp(*inputs)
    torch.cuda.synchronize()
    return comp, inputs, outs


def nbytes(ts):
    import torch
    return sum(t.numel() * t.element_size() for t in ts if isinstance(t, torch.Tensor))


def main(argv):
    jobs, reps, inner, paths = 6, 10, 5, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--jobs", "--reps", "--inner"):
            v = int(argv[i + 1])
            jobs, reps, inner = (v, reps, inner) if a == "--jobs" else (jobs, v, inner) if a == "--reps" else (jobs, reps, v)
            i += 2
            continue
        if a == "--warm":
            import nvfuser_torch
            nvfuser_torch.install()
            compiled(argv[i + 1])
            return 0
        paths.append(a)
        i += 1
    # 1. the compiles, in parallel processes
    running, failed = [], []
    for p in paths:
        running.append((p, subprocess.Popen([sys.executable, __file__, "--warm", p], stdout=subprocess.DEVNULL)))
        if len(running) >= jobs:
            q, proc = running.pop(0)
            if proc.wait() != 0:
                failed.append(q)
    for q, proc in running:
        if proc.wait() != 0:
            failed.append(q)
    # 2. the timing, one case at a time
    import torch
    import nvfuser_torch
    import peers
    torch._dynamo.config.recompile_limit = 64
    nvfuser_torch.install()
    big = torch.empty(2 * 1024**3, dtype=torch.uint8, device="cuda")
    big2 = torch.empty_like(big)
    t, _ = peers.timed(lambda: big2.copy_(big), reps=10, inner=1)
    print(json.dumps(dict(copy_TBps=round(2 * big.numel() / t / 1e6, 3), gpu=torch.cuda.get_device_name())), flush=True)
    del big, big2
    for p in paths:
        try:
            comp, inputs, outs = compiled(p)
            row = dict(case=os.path.basename(p), in_MB=nbytes(inputs) / 1e6, out_MB=nbytes(outs) / 1e6,
                       warmed=p not in failed)
            row["compile_us"], row["compile_graph_us"] = peers.timed(lambda: comp(*inputs), reps=reps, inner=inner)
            print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
            del comp, inputs, outs
        except Exception as e:  # a case the stand-in cannot run: say so and go on
            print(json.dumps(dict(case=os.path.basename(p), error=f"{type(e).__name__}: {e}"[:300])), flush=True)
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
