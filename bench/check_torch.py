"""Compares fuser's GPU outputs with PyTorch in float64 on the same inputs.

Usage: python3 check_torch.py SCRIPT.py DIR [--nvfuser-torch PATH] [--limit L] [--device D]
       python3 check_torch.py --batch [--lock FILE] [--remove] [--nvfuser-torch PATH] [--limit L] [--device D]
DIR holds what `fuser-run --artifact F --save DIR` wrote: input_<k>.npy (the
values each tensor input had; bf16 widened exactly to float32) and
output_<k>.npy. The script is run through the nvfuser_torch stand-in
(../shared/bench) in float64 on the GPU and each output is compared:
prints one JSON line with the relative error ||out - ref|| / ||ref||; ok when
it is below L (default 1e-4: issue 13's bound).

--batch reads "SCRIPT DIR" lines from stdin and checks each in this one
process (PyTorch imports once: ~8 s a case when each was its own process,
which cut session 5's reductions.sh at 12 of 13 artifacts); with --lock its
GPU work holds an flock on FILE (the lock bench/gpu/reductions.sh's timing
holds), with --remove each DIR is deleted once checked. Exits 1 when some
case failed. --device cpu runs the float64 reference on the CPU (tests).
Session 5 passed anything below 1e-2 although docs/PERFORMANCE.md said 1e-4."""
import importlib.util
import json
import os
import shutil
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_lock import gpu_lock  # noqa: E402  (beside this file, in the tree and in a carried folder)


def load_standin(path):
    spec = importlib.util.spec_from_file_location("nvfuser_torch", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.install()
    return mod


def check(script, out_dir, limit, device):
    """One JSON-able row: the worst relative error over the outputs."""
    src = open(script).read().replace("fd.execute(inputs)", "")
    if device != "cuda":  # the scripts make their inputs on 'cuda:0'
        src = src.replace("device='cuda:0'", f"device='{device}'").replace('device="cuda:0"', f"device='{device}'")
    ns = {}
    exec(compile(src, script, "exec"), ns)
    fd, script_inputs = ns["fd"], ns["inputs"]
    inputs = []
    for k, x in enumerate(script_inputs):
        path = os.path.join(out_dir, f"input_{k}.npy")
        if isinstance(x, torch.Tensor):
            inputs.append(torch.from_numpy(np.load(path)).to(device, torch.float64))
        else:
            inputs.append(x)
    del ns, script_inputs
    refs = fd.run(inputs)
    worst = 0.0
    for k, ref in enumerate(refs):
        out = torch.from_numpy(np.load(os.path.join(out_dir, f"output_{k}.npy"))).to(device, torch.float64)
        ref = ref.to(torch.float64)
        if out.shape != ref.shape:
            return dict(case=os.path.basename(script), output=k, error="shape", got=list(out.shape), want=list(ref.shape),
                        ok=False)
        denom = max(ref.norm().item(), 1e-30)
        rel = (out - ref).norm().item() / denom if ref.numel() else 0.0
        worst = max(worst, rel)
    return dict(case=os.path.basename(script), torch_f64_rel_err=worst, limit=limit, ok=worst < limit)


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    standin = option("--nvfuser-torch", os.path.join(os.path.dirname(__file__), "nvfuser_torch.py"))
    limit = float(option("--limit", "1e-4"))
    device = option("--device", "cuda")  # cpu: the check's own test, without a GPU
    load_standin(standin)
    if "--batch" not in sys.argv:
        row = check(sys.argv[1], sys.argv[2], limit, device)
        print(json.dumps(row), flush=True)
        sys.exit(0 if row["ok"] else 1)
    lock, remove, all_ok = option("--lock", ""), "--remove" in sys.argv, True
    for line in sys.stdin:
        if not line.split():
            continue
        script, out_dir = line.split()[:2]
        try:
            with gpu_lock(lock):
                row = check(script, out_dir, limit, device)
                if device == "cuda":
                    torch.cuda.empty_cache()
        except Exception as e:  # a case that cannot be checked (no saved output: its run failed) says so
            row = dict(case=os.path.basename(script), error=f"{type(e).__name__}: {e}"[:300], ok=False)
        all_ok &= row["ok"]
        print(json.dumps(row), flush=True)
        if remove:
            shutil.rmtree(out_dir, ignore_errors=True)
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
