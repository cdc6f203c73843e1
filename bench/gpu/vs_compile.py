#!/usr/bin/env python3
"""vs_compile.py: fuser against torch.compile on the same inputs, in one
process, alternating: the paired measurement behind issue 15's "no slower
than torch.compile".

peers.py times torch.compile in its own process and fuser-run times fuser in
another, each with its own copy bandwidth: at the roofline both sides are
within 1% of each other and of the copy, and which one is ahead flipped from
run to run (session 6: transpose_large 252.74 against 251.81 µs). Here both
sides run in one process on the same input tensors, each as a CUDA graph of
CALLS calls (plain back-to-back calls timed by events when either side
cannot be captured; the row says which), and the rounds alternate which side
goes first. Each round gives one ratio fuser / torch.compile; the row has the
median ratio and the range of the ROUNDS ratios, which is a distribution-free
interval for the median ratio (coverage 1 - 2^(1-ROUNDS): 98.4% for 7).

fuser runs through its Python binding (fuser.run's stand-in for `nvfuser`:
the script unchanged, its first fd.execute recorded); torch.compile through
the peers' stand-in (nvfuser_torch.py, as peers.py: dynamic=False). The
outputs of the two are compared (max |fuser - torch.compile| in float64).

    PYTHONPATH=<fuser package> python3 vs_compile.py [--rounds 7] [--calls 10]
        [--peers-dir DIR (nvfuser_torch.py)] [--dump-graphs DIR] [--device cpu (a dry run)] SCRIPT...

One JSON line per script, and one for the copy bandwidth (2 GiB copy_,
before and after). Rows under 4 MB also carry what bounds them, timed in the
same rounds: floor_empty_us (a graph of one-element fills: the launch alone)
and floor_copy_us (a graph of copies of the fusion's bytes)."""
import argparse
import json
import os
import runpy
import statistics
import sys
import time

import torch

CUDA = True  # False under --device cpu


def record_fuser(path):
    """(fd, inputs, outputs) of the script's first fd.execute through fuser."""
    from fuser import run as fuser_run
    recorder = fuser_run._Recorder()
    sys.modules["nvfuser"] = fuser_run._stand_in(recorder)
    torch.manual_seed(0)
    runpy.run_path(path, run_name="__main__")
    if not recorder.calls:
        raise RuntimeError("the script made no fd.execute call")
    return recorder.calls[0]


def torch_fusion(path, peers_dir):
    """The script's fd through the peers' PyTorch stand-in."""
    sys.path.insert(0, peers_dir)
    import nvfuser_torch
    nvfuser_torch.install()
    torch.manual_seed(0)
    return runpy.run_path(path, run_name="__main__")["fd"]


def node_kinds(dot_path):
    """{node kind: count} of a CUDA graph's DOT dump (cudaGraphDebugDotPrint):
    what the graph holds besides kernels (memset, memory alloc/free nodes)."""
    import re
    kinds = {}
    for m in re.finditer(r'label="[^"]*?\b(KERNEL|MEMSET|MEMCPY|MEM_ALLOC|MEM_FREE|EVENT_RECORD|WAIT_EVENT|HOST|EMPTY)\b',
                         open(dot_path).read()):
        kinds[m.group(1)] = kinds.get(m.group(1), 0) + 1
    return kinds


def graph_timer(fn, calls, dump=None):
    """A function that replays a CUDA graph of `calls` calls of fn and
    returns µs per call; None when fn cannot be captured (or on the CPU).
    With dump (a path), the graph is also written there as DOT."""
    if not CUDA:
        return None
    try:
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        if dump:
            g.enable_debug_mode()
        with torch.cuda.graph(g):
            for _ in range(calls):
                fn()
        if dump:
            g.debug_dump(dump)
        g.replay()
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 (any capture failure: time plain calls instead)
        print(json.dumps(dict(note=f"graph capture failed: {type(e).__name__}: {e}"[:300])), flush=True)
        torch.cuda.synchronize()
        return None
    return lambda: events(g.replay, calls)


def events(fn, calls):
    """µs per call of fn (which makes `calls` calls): CUDA events, or the
    host clock on the CPU (--device cpu, the dry run of this script)."""
    if not CUDA:
        t = time.perf_counter()
        fn()
        return (time.perf_counter() - t) * 1e6 / calls
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) * 1e3 / calls


def plain_timer(fn, calls):
    def many():
        for _ in range(calls):
            fn()
    return lambda: events(many, calls)


def sample(timer, reps):
    return statistics.median(timer() for _ in range(reps))


def nbytes(ts):
    return sum(t.numel() * t.element_size() for t in ts if isinstance(t, torch.Tensor))


def max_diff(a, b):
    d = 0.0
    for x, y in zip(a, b):
        if x.numel():
            d = max(d, (x.double() - y.double()).abs().max().item())
    return d


def copy_TBps():
    big = torch.empty(2 * 1024**3 if CUDA else 2**26, dtype=torch.uint8, device="cuda" if CUDA else "cpu")
    big2 = torch.empty_like(big)
    t = sample(plain_timer(lambda: big2.copy_(big), 1), 10)
    n = big.numel()
    del big, big2
    torch.cuda.empty_cache()
    return 2 * n / t / 1e6


SMALL_MB = 4.0


def small_floors(mb, calls):
    """What bounds a small fusion, timed like its two sides (a CUDA graph
    of `calls` calls): `floor_empty_us`, a one-element fill (a kernel launch
    and nothing to move), and `floor_copy_us`, torch's copy_ of the fusion's
    bytes (half read, half written). Empty on the CPU."""
    if not CUDA:
        return {}
    one = torch.empty(1, device="cuda")
    src = torch.empty(max(1, int(mb * 1e6 / 2)), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    out = {}
    for k, fn in (("floor_empty_us", lambda: one.fill_(1.0)), ("floor_copy_us", lambda: dst.copy_(src))):
        t = graph_timer(fn, calls)
        if t:
            out[k] = t
    return out


def one(path, args, bw):
    fd, inputs, outputs = record_fuser(path)
    tfd = torch_fusion(path, args.peers_dir)

    def fusion(*xs):
        return tfd.run(list(xs))
    if hasattr(torch, "compile"):
        torch._dynamo.reset()
        comp, peer = torch.compile(fusion, dynamic=False), "torch.compile"
    else:  # an old CPU torch (the dry run here): say so in the row
        comp, peer = fusion, f"eager (torch {torch.__version__} has no torch.compile)"
    couts = comp(*inputs)

    def ours():
        return fd.execute(inputs)

    def theirs():
        return comp(*inputs)
    fouts = ours()
    row = dict(case=os.path.basename(path), peer=peer, MB=(nbytes(inputs) + nbytes(fouts)) / 1e6,
               max_abs_diff=max_diff(fouts, couts))
    dumps = [None, None]
    if args.dump_graphs:
        os.makedirs(args.dump_graphs, exist_ok=True)
        stem = os.path.join(args.dump_graphs, os.path.basename(path).replace(".py", ""))
        dumps = [stem + ".fuser.dot", stem + ".compile.dot"]
    timers = [graph_timer(ours, args.calls, dumps[0]), graph_timer(theirs, args.calls, dumps[1])]
    floors = small_floors(row["MB"], args.calls) if row["MB"] < SMALL_MB else {}
    for side, d in zip(("fuser_graph", "compile_graph"), dumps):
        if d and os.path.exists(d):
            row[side] = node_kinds(d)
    row["timing"] = "graph"
    if None in timers:
        timers = [plain_timer(ours, args.calls), plain_timer(theirs, args.calls)]
        row["timing"] = "plain"
    for t in timers:  # warm both
        t()
    f_us, c_us, ratio, floor_us = [], [], [], {}
    for r in range(args.rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        got = {}
        for side in order:
            got[side] = sample(timers[side], args.reps)
        f_us.append(got[0])
        c_us.append(got[1])
        ratio.append(got[0] / got[1])
        for k, t in floors.items():
            floor_us.setdefault(k, []).append(sample(t, args.reps))
    row.update(fuser_us=statistics.median(f_us), compile_us=statistics.median(c_us),
               ratio=statistics.median(ratio), ratio_lo=min(ratio), ratio_hi=max(ratio),
               rounds=args.rounds)
    for k, v in floor_us.items():
        row[k] = statistics.median(v)
    row["fuser_pct_copy"] = 100 * row["MB"] / row["fuser_us"] / bw
    row["compile_pct_copy"] = 100 * row["MB"] / row["compile_us"] / bw
    row["verdict"] = ("faster" if row["ratio_hi"] < 1 else "slower" if row["ratio_lo"] > 1 else "level")
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scripts", nargs="+")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=10, help="calls per graph (or per plain sample)")
    ap.add_argument("--reps", type=int, default=5, help="samples per round and side (their median)")
    ap.add_argument("--peers-dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--dump-graphs", metavar="DIR",
                    help="write each side's CUDA graph as DOT to DIR and count its nodes by kind in the row "
                         "(what a graph holds besides kernels: memsets, allocation nodes)")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cpu: a dry run of this script on the CPU (the CUDA scripts' tensors made on the CPU)")
    args = ap.parse_args()
    global CUDA
    CUDA = args.device == "cuda"
    if not CUDA:
        from fuser import run as fuser_run
        fuser_run._redirect_torch_to_cpu()
    if hasattr(torch, "_dynamo"):
        torch._dynamo.config.recompile_limit = 64
    bw = copy_TBps()
    print(json.dumps(dict(copy_TBps=round(bw, 3), gpu=torch.cuda.get_device_name() if CUDA else "cpu")), flush=True)
    for p in args.scripts:
        try:
            one(p, args, bw)
        except Exception as e:  # noqa: BLE001 (a script one side cannot run: say so, go on)
            print(json.dumps(dict(case=os.path.basename(p), error=f"{type(e).__name__}: {e}"[:300])), flush=True)
        torch.cuda.empty_cache()
    print(json.dumps(dict(copy_TBps_after=round(copy_TBps(), 3))), flush=True)


if __name__ == "__main__":
    main()
