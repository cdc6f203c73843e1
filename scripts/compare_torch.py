#!/usr/bin/python3
"""Cross-check the CPU reference evaluator against PyTorch on the CPU.

    scripts/compare_torch.py SCRIPT.py [FUSION] [--seed N] [--fuser-run PATH]

Runs `fuser-run --cpu --save DIR` on FUSION (default: SCRIPT.py itself, which
needs the importer; a hand-written .mlir of the same fusion works too), then
runs SCRIPT.py's fusion definition with PyTorch (../shared/bench/nvfuser_torch.py,
the nvFuser stand-in) on the very same input values (DIR/in<i>.npy), and
compares every output: how many elements are bit-identical, the largest
absolute and relative differences. Needs Debian's python3-torch and
python3-numpy; no test depends on it.
"""
import argparse, os, subprocess, sys, tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_definition(script):
    """Executes SCRIPT with the PyTorch stand-in, without its fd.execute call;
    returns (fd, the script's own inputs)."""
    sys.path.insert(0, os.path.join(ROOT, "..", "shared", "bench"))
    import nvfuser_torch
    nvfuser_torch.install()
    src = open(script).read().replace("device='cuda:0'", "device='cpu'").replace('device="cuda:0"', "device='cpu'")
    src = "\n".join(l for l in src.splitlines() if not l.strip().startswith("fd.execute("))
    ns = {}
    exec(compile(src, script, "exec"), ns)
    return ns["fd"], ns["inputs"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("script")
    ap.add_argument("fusion", nargs="?")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fuser-run", default=os.path.join(ROOT, "build", "bin", "fuser-run"))
    args = ap.parse_args()
    fd, script_inputs = load_definition(args.script)
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([args.fuser_run, "--cpu", "--seed", str(args.seed), "--save", tmp,
                              args.fusion or args.script], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("fuser-run failed:\n" + run.stderr)
        inputs = []
        for i, orig in enumerate(script_inputs):
            path = os.path.join(tmp, f"in{i}.npy")
            if not isinstance(orig, torch.Tensor):
                inputs.append(orig)
                continue
            inputs.append(torch.from_numpy(np.load(path)).to(orig.dtype))
        outputs = fd.run(inputs)
        worst = 0.0
        for i, ref in enumerate(outputs):
            ours = np.load(os.path.join(tmp, f"out{i}.npy"))
            theirs = ref.float().numpy() if ref.dtype == torch.bfloat16 else ref.numpy()
            if ours.shape != theirs.shape:
                print(f"output #{i}: shape {ours.shape} vs torch {theirs.shape}")
                worst = float("inf")
                continue
            a, b = ours.astype(np.float64), theirs.astype(np.float64)
            same = np.sum((a == b) | (np.isnan(a) & np.isnan(b)))
            diff = np.abs(a - b)
            diff[np.isnan(a) & np.isnan(b)] = 0
            rel = float(np.max(diff / np.maximum(np.abs(b), 1e-30))) if a.size else 0.0
            print(f"output #{i}: {ref.dtype} {tuple(ours.shape)}: {same}/{a.size} bit-identical, "
                  f"max abs diff {float(diff.max()) if a.size else 0.0:.3g}, max rel diff {rel:.3g}")
            worst = max(worst, rel)
    return 0 if worst < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
