"""python3 -m fuser.run [options] script.py: runs an nvFuser repro script
unchanged with fuser standing in for nvfuser, then checks every
fd.execute(inputs) it made:

  - the outputs against fuser's CPU reference evaluator on CPU copies of the
    same inputs (a CUDA run, or a CPU run on the JIT, FUSER_CPU_BACKEND=jit;
    a CPU run on the reference itself then checks that outputs are the
    caller's tensors with the defined shapes and dtypes);
  - the recorded fusion against the one fuser's importer reads from the
    script text (same IR hash), when the script is a repro file.

--device cpu runs a script written for CUDA on the CPU: torch's factories
(torch.randn(..., device='cuda:0'), .cuda(), .to('cuda')) make CPU tensors.
Exit status 0 when every check passed, 1 otherwise, 2 on usage errors."""
import argparse
import runpy
import sys
import types

import fuser


class _Recorder:
    def __init__(self):
        self.calls = []  # (fd, inputs, outputs)


def _stand_in(recorder):
    """The module `nvfuser` resolves to: fuser, with execute recorded."""
    class FusionDefinition(fuser.FusionDefinition):
        def execute(self, inputs, **kw):
            outputs = super().execute(inputs, **kw)
            recorder.calls.append((self, list(inputs), outputs))
            return outputs

    m = types.ModuleType("nvfuser")
    m.FusionDefinition = FusionDefinition
    m.DataType = fuser.DataType
    m.FuserError = fuser.FuserError
    m.__fuser__ = True
    return m


def _redirect_torch_to_cpu():
    """torch factories and moves to 'cuda' give CPU tensors instead."""
    import torch

    def cpu(dev):
        s = str(dev) if dev is not None else None
        return "cpu" if s is not None and s.startswith("cuda") else dev

    def wrap(fn):
        def f(*a, **kw):
            if "device" in kw:
                kw["device"] = cpu(kw["device"])
            return fn(*a, **kw)
        return f

    for name in ("randn", "rand", "randint", "zeros", "ones", "empty", "full", "arange", "tensor", "empty_strided",
                 "randn_like", "rand_like", "zeros_like", "ones_like", "empty_like", "full_like", "linspace"):
        if hasattr(torch, name):
            setattr(torch, name, wrap(getattr(torch, name)))
    to = torch.Tensor.to

    def to_cpu(self, *a, **kw):
        a = tuple(cpu(x) if isinstance(x, (str, torch.device)) else x for x in a)
        if "device" in kw:
            kw["device"] = cpu(kw["device"])
        return to(self, *a, **kw)

    torch.Tensor.to = to_cpu
    torch.Tensor.cuda = lambda self, *a, **kw: self


def _to_cpu(x):
    return x.cpu() if hasattr(x, "cpu") and hasattr(x, "is_cuda") and x.is_cuda else x


def _compare(got, want, name):
    """(ok, message) for one output against the reference."""
    import torch
    if not isinstance(got, torch.Tensor):
        return False, f"{name}: a {type(got).__name__}, not a torch tensor"
    if tuple(got.shape) != tuple(want.shape) or got.dtype != want.dtype:
        return False, f"{name}: {tuple(got.shape)} {got.dtype}, the reference gives {tuple(want.shape)} {want.dtype}"
    g, w = got.detach().cpu(), want.detach().cpu()
    if g.dtype == torch.bool or not g.is_floating_point():
        bad = int((g != w).sum())
        return bad == 0, f"{name}: {bad} elements differ"
    g, w = g.double(), w.double()
    both_nan = torch.isnan(g) & torch.isnan(w)
    diff = torch.where(both_nan, torch.zeros_like(g), (g - w).abs())
    # one unit in the last place of the output dtype, relative (reductions may sum in another order)
    eps = {torch.bfloat16: 2.0 ** -7, torch.float16: 2.0 ** -10, torch.float32: 2.0 ** -20}.get(got.dtype, 2.0 ** -40)
    tol = eps * (w.abs() + 1.0)
    bad = int((diff > tol).sum()) if diff.numel() else 0
    worst = float(diff.max()) if diff.numel() else 0.0
    return bad == 0, f"{name}: max abs diff {worst:.3g} ({bad} beyond 1 ulp)"


def check(path, recorder, text):
    ok = True
    for n, (fd, inputs, outputs) in enumerate(recorder.calls):
        where = f"{path} execute #{n + 1}"
        on_cuda = any(getattr(x, "is_cuda", False) for x in inputs)
        lines = []
        # the oracle: the reference evaluator on CPU copies of the inputs (for a CPU run with
        # FUSER_CPU_BACKEND=jit that checks the JIT; for a reference run it reruns it)
        ref = fuser.FusionDefinition.execute(fd, [_to_cpu(x) for x in inputs], cpu_backend="reference")
        if len(ref) != len(outputs):
            ok = False
            lines.append(f"{len(outputs)} outputs, the reference gives {len(ref)}")
        for k, (g, w) in enumerate(zip(outputs, ref)):
            if on_cuda and not getattr(g, "is_cuda", False):
                ok = False
                lines.append(f"output {k} is not a CUDA torch tensor")
                continue
            good, msg = _compare(g, w, f"output {k}")
            ok &= good
            lines.append(msg)
        if text is not None:
            try:
                _, h = fuser.import_script(text, path)
                same = h == fd.hash
                ok &= same
                lines.append("IR equals the importer's" if same else "IR differs from the importer's")
            except fuser.FuserError as e:
                lines.append(f"(the importer does not read this script: {e})")
        stats = fd.cache_stats()
        if stats:
            lines.append(f"cache: {stats['entries']} entries, {stats['compiles']} compiles, {stats['hits']} hits")
        status = "ok" if ok else "FAILED"
        dev = "cuda" if on_cuda else "cpu"
        print(f"{where}: {status} on {dev}, {len(inputs)} inputs, {len(outputs)} outputs; " + "; ".join(lines))
    if not recorder.calls:
        print(f"{path}: the script made no fd.execute call")
    return ok


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m fuser.run", description=__doc__.splitlines()[0])
    p.add_argument("--device", choices=["cpu", "cuda"], help="cpu: run a CUDA script's tensors on the CPU")
    p.add_argument("--no-check", action="store_true", help="only run the script")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    recorder = _Recorder()
    sys.modules["nvfuser"] = _stand_in(recorder)
    if a.device == "cpu":
        _redirect_torch_to_cpu()
    try:
        with open(a.script) as f:
            text = f.read()
    except OSError as e:
        print(f"fuser.run: error: {e}", file=sys.stderr)
        return 2
    sys.argv = [a.script] + a.args
    try:
        runpy.run_path(a.script, run_name="__main__")
    except fuser.FuserError as e:
        print(f"fuser.run: {a.script}: {e}", file=sys.stderr)
        return 1
    if a.no_check:
        return 0
    return 0 if check(a.script, recorder, text) else 1


if __name__ == "__main__":
    sys.exit(main())
