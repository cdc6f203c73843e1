"""Compares fuser's GPU outputs with PyTorch in float64 on the same inputs.

Usage: python3 check_torch.py SCRIPT.py DIR [--nvfuser-torch PATH]
DIR holds what `fuser-run --artifact F --save DIR` wrote: input_<k>.npy (the
values each tensor input had; bf16 widened exactly to float32) and
output_<k>.npy. The script is run through the nvfuser_torch stand-in
(../shared/bench) in float64 on the GPU and each output is compared:
prints one JSON line with the relative error ||out - ref|| / ||ref||."""
import importlib.util, json, os, sys

import numpy as np
import torch


def load_standin(path):
    spec = importlib.util.spec_from_file_location("nvfuser_torch", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.install()
    return mod


def main():
    script, out_dir = sys.argv[1], sys.argv[2]
    standin = sys.argv[sys.argv.index("--nvfuser-torch") + 1] if "--nvfuser-torch" in sys.argv else \
        os.path.join(os.path.dirname(__file__), "nvfuser_torch.py")
    load_standin(standin)
    src = open(script).read().replace("fd.execute(inputs)", "")
    ns = {}
    exec(compile(src, script, "exec"), ns)
    fd, script_inputs = ns["fd"], ns["inputs"]
    inputs = []
    for k, x in enumerate(script_inputs):
        path = os.path.join(out_dir, f"input_{k}.npy")
        if isinstance(x, torch.Tensor):
            inputs.append(torch.from_numpy(np.load(path)).to("cuda", torch.float64))
        else:
            inputs.append(x)
    refs = fd.run(inputs)
    worst = 0.0
    for k, ref in enumerate(refs):
        out = torch.from_numpy(np.load(os.path.join(out_dir, f"output_{k}.npy"))).to("cuda", torch.float64)
        ref = ref.to(torch.float64)
        if out.shape != ref.shape:
            print(json.dumps(dict(case=os.path.basename(script), output=k, error="shape", got=list(out.shape),
                                  want=list(ref.shape))))
            sys.exit(1)
        denom = max(ref.norm().item(), 1e-30)
        rel = (out - ref).norm().item() / denom if ref.numel() else 0.0
        worst = max(worst, rel)
    ok = worst < 1e-2
    print(json.dumps(dict(case=os.path.basename(script), torch_f64_rel_err=worst, ok=ok)), flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
