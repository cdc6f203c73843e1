"""python3 -m fuser.bench [--device cuda|cpu] [--numel N] [--iters K]: the
per-call overhead of the Python binding. One cached one-kernel fusion
(out = x + y, bf16 in, bf16 out), called K times

  - from Python: fd.execute([x, y]) (torch tensors in, a torch tensor out,
    dropped at once as a training step would), and
  - through the C API alone: the same libfuser fusion, inputs taken once,
    fuser_fusion_execute_on + fuser_output_release_on per call (_C._c_api_loop),

then the difference per call, and where fd.execute's time goes (the
binding's phases, timed inside the C extension). Host time: no
synchronisation per call (small tensors, so the GPU keeps up). Prints a
table and one JSON line (for docs/PERFORMANCE.md)."""
import argparse
import json
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


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m fuser.bench", description=__doc__.splitlines()[0])
    p.add_argument("--device", default=None, help="cuda (default when available) or cpu")
    p.add_argument("--numel", type=int, default=1024)
    p.add_argument("--iters", type=int, default=20000)
    p.add_argument("--repeats", type=int, default=5, help="best of this many runs")
    a = p.parse_args(argv)
    import torch
    dev = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    iters = a.iters if dev == "cuda" else min(a.iters, 200)
    x = torch.randn(a.numel, dtype=torch.bfloat16, device=dev)
    y = torch.randn(a.numel, dtype=torch.bfloat16, device=dev)
    fd = make_fusion()
    inputs = [x, y]
    (out,) = fd.execute(inputs)  # compiles the entry for this signature
    assert torch.equal(out, (x.float() + y.float()).to(torch.bfloat16)), "wrong result"
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    exchange = _C._exchange_api(x)
    print(f"fuser.bench: {dev}, numel {a.numel}, {iters} calls x {a.repeats} (best), torch {torch.__version__}")
    print("  tensors in and out through " + ("DLPack's C exchange API (torch.Tensor.__dlpack_c_exchange_api__)"
                                           if exchange else "DLPack capsules (torch._C._to_dlpack / _from_dlpack)"))
    rows = {}
    # CUDA outputs from torch's caching allocator (the default for torch callers) and from cuMemAllocAsync
    for alloc in (["torch", "runtime"] if dev == "cuda" else ["host"]):
        if dev == "cuda":
            _C._set_allocator(alloc)
        fd.execute(inputs)  # the fusion for this allocator
        py, capi = [], []
        for _ in range(a.repeats):
            sync()
            py.append(python_loop(fd, inputs, iters))
            sync()
            capi.append(_C._c_api_loop(fd, inputs, iters))
            sync()
        _C._timing(True)
        python_loop(fd, inputs, iters)
        sync()
        phases = _C._timing(False)
        py_ns, c_ns = min(py), min(capi)
        rows[alloc] = {"python_ns": round(py_ns), "c_api_ns": round(c_ns), "overhead_ns": round(py_ns - c_ns),
                       "phases_ns": {k: round(v) for k, v in phases.items()}}
        print(f"  outputs from {alloc} memory:")
        print(f"    fd.execute from Python   {py_ns / 1000:8.2f} us/call")
        print(f"    C API (libfuser)         {c_ns / 1000:8.2f} us/call")
        print(f"    binding overhead         {(py_ns - c_ns) / 1000:8.2f} us/call")
        print("    where fd.execute's time goes (timed inside the extension, timing on):")
        for k, v in phases.items():
            print(f"      {k:22s} {v / 1000:8.2f} us")
    if dev == "cuda":
        _C._set_allocator("torch")
    stats = fd.cache_stats()
    print(f"  cache: {stats}")
    print(json.dumps({"bench": "python_overhead", "device": dev, "numel": a.numel, "iters": iters, "by_allocator": rows,
                      "cache": stats, "torch": torch.__version__, "exchange_api": exchange}))


if __name__ == "__main__":
    main()
