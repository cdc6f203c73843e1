"""python3 -m fuser.bench [--device cuda|cpu] [--numel N] [--iters K]: the
per-call overhead of the Python binding. One cached one-kernel fusion
(out = x + y, bf16 in, bf16 out), called K times

  - from Python: fd.execute([x, y]) (torch tensors in, a torch tensor out,
    dropped at once as a training step would), and
  - through the C API alone: the same libfuser fusion, inputs taken once,
    fuser_fusion_execute_on + fuser_output_release_on per call (_C._c_api_loop),
    on the same stream with the same allocator,

then the difference per call, and where fd.execute's time goes: the
binding's steps timed inside the C extension (arguments, the inputs'
DLTensors, the stream query, nvFuser's checks, libfuser's execute, the
caller's allocator for the outputs, the outputs as torch tensors, and when
the output dies our deleter and the allocator's free), libfuser's signature
and cache lookup timed apart (_C._lookup_loop), and what is left outside
the extension (the Python call, the result list, torch's tensor teardown).
On CUDA the outputs come from torch's caching allocator through DLPack's
exchange table (C calls; the default when torch has it), through torch._C
with Python calls (the way before it, and for stream= calls), and from the
runtime's own caching allocator. Host time: no synchronisation per call
(small tensors, so the GPU keeps up). Python and C API loops alternate; the
table gives the fastest of --repeats (11) of each and the median of the
per-repeat differences. Prints a table and one JSON line (for
docs/PERFORMANCE.md)."""
import argparse
import json
import statistics
import time

import fuser
from fuser import DataType, FusionDefinition, _C


def make_fusion():
    with FusionDefinition() as fd:
        x = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16)
        y = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16)
        fd.add_output(fd.ops.cast(fd.ops.add(x, y), DataType.BFloat16))
    return fd


def python_loop(fd, inputs, iters):
    ex = fd.execute
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        ex(inputs)
    return (time.perf_counter_ns() - t0) / iters


def empty_loop(iters):
    """The Python loop itself (calling a C function that does nothing much)."""
    f = _C._exchange_allocations
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        f()
    return (time.perf_counter_ns() - t0) / iters


def measure(fd, inputs, iters, repeats, sync):
    py, capi = [], []
    for _ in range(repeats):
        sync()
        py.append(python_loop(fd, inputs, iters))
        sync()
        capi.append(_C._c_api_loop(fd, inputs, iters))
        sync()
    timed, phases = None, None
    for _ in range(3):  # the split of the fastest of three timed loops (the host is noisy)
        _C._timing(True)
        t = python_loop(fd, inputs, iters)
        sync()
        ph = _C._timing(False)
        if timed is None or t < timed:
            timed, phases = t, ph
    lookup = min(_C._lookup_loop(fd, inputs, iters) for _ in range(3))
    py_ns, c_ns = min(py), min(capi)
    return {"python_ns": round(py_ns), "c_api_ns": round(c_ns), "overhead_ns": round(py_ns - c_ns),
            "overhead_median_ns": round(statistics.median(p - c for p, c in zip(py, capi))),
            "timed_python_ns": round(timed), "lookup_ns": round(lookup),
            "outside_ns": round(timed - sum(phases.values())),
            "phases_ns": {k: round(v) for k, v in phases.items()}}


STEPS = {"arguments": "arguments (the inputs list)",
         "dlpack_inputs": "inputs' DLTensors ({n_in} inputs)",
         "stream_query": "stream query",
         "checks": "checks (kinds, ranks, dtypes)",
         "libfuser_execute": "libfuser execute",
         "output_alloc": "output allocation (caller's allocator)",
         "outputs": "outputs as torch tensors ({n_out} output(s))",
         "output_release": "output release (our deleter)",
         "output_free": "output free (caller's allocator)"}


def report(alloc, r, n_in, n_out):
    us = lambda ns: f"{ns / 1000:8.2f} us"
    print(f"  outputs from {alloc}:")
    print(f"    fd.execute from Python   {us(r['python_ns'])}/call")
    print(f"    C API (libfuser)         {us(r['c_api_ns'])}/call")
    print(f"    binding overhead         {us(r['overhead_ns'])}/call (median of the repeats' differences"
          f" {us(r['overhead_median_ns']).strip()})")
    print(f"    where fd.execute's time goes (timed inside the extension, timing on: {us(r['timed_python_ns']).strip()}/call):")
    for k, v in r["phases_ns"].items():
        print(f"      {STEPS.get(k, k).format(n_in=n_in, n_out=n_out):42s} {us(v)}")
        if k == "libfuser_execute":
            print(f"        {'of which signature + cache lookup':40s} {us(r['lookup_ns'])} (timed apart)")
    print(f"      {'outside: Python call, list, tensor teardown':42s} {us(r['outside_ns'])}")


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m fuser.bench", description=__doc__.splitlines()[0])
    p.add_argument("--device", default=None, help="cuda (default when available) or cpu")
    p.add_argument("--numel", type=int, default=1024)
    p.add_argument("--iters", type=int, default=None, help="calls per loop (default 20000 on CUDA, 200 on the CPU)")
    p.add_argument("--repeats", type=int, default=11, help="loops of each kind, alternating")
    a = p.parse_args(argv)
    import torch
    dev = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    iters = a.iters or (20000 if dev == "cuda" else 200)
    x = torch.randn(a.numel, dtype=torch.bfloat16, device=dev)
    y = torch.randn(a.numel, dtype=torch.bfloat16, device=dev)
    fd = make_fusion()
    inputs = [x, y]
    outs = fd.execute(inputs)  # compiles the entry for this signature
    out, n_out = outs[0], len(outs)
    assert torch.equal(out, (x.float() + y.float()).to(torch.bfloat16)), "wrong result"
    table_alloc = _C._exchange_allocations() > 0  # out's memory came through the exchange table
    del out, outs
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    exchange = _C._exchange_api(x)
    print(f"fuser.bench: {dev}, numel {a.numel}, {iters} calls x {a.repeats}, torch {torch.__version__}")
    print("  tensors in and out through " + ("DLPack's C exchange API (torch.Tensor.__dlpack_c_exchange_api__)"
                                           if exchange else "DLPack capsules (torch._C._to_dlpack / _from_dlpack)"))
    print(f"  the Python loop alone (a C call per iteration): {empty_loop(iters) / 1000:.2f} us")
    rows = {}
    if dev == "cuda":
        kinds = [("torch", "torch's caching allocator through the exchange table (C)" if table_alloc else
                  "torch's caching allocator through torch._C (Python calls)")]
        if table_alloc:
            kinds.append(("torch_python", "torch's caching allocator through torch._C (Python calls)"))
        kinds.append(("runtime", "the runtime's caching allocator"))
    else:
        kinds = [("host", "host memory")]
    for alloc, what in kinds:
        if dev == "cuda":
            _C._set_allocator(alloc)
        fd.execute(inputs)  # the fusion for this allocator
        rows[alloc] = measure(fd, inputs, iters, a.repeats, sync)
        report(what, rows[alloc], len(inputs), n_out)
    if dev == "cuda":
        _C._set_allocator("torch")
    stats = fd.cache_stats()
    print(f"  cache: {stats}")
    print(json.dumps({"bench": "python_overhead", "device": dev, "numel": a.numel, "iters": iters, "by_allocator": rows,
                      "cache": stats, "torch": torch.__version__, "exchange_api": exchange,
                      "exchange_allocator": table_alloc}))


if __name__ == "__main__":
    main()
