"""python3 python_check.py [--reference-below N] SCRIPT...: issue 19's GPU
acceptance in one process (torch imported once), called by
bench/gpu/python_run.sh with FUSER_CACHE_DIR set to an empty folder.

Each nvFuser script runs unchanged on CUDA tensors through fuser's binding
(fuser.run's stand-in for `nvfuser`, torch seeded), then every fd.execute
it made is checked:

  - no copy: each output is a CUDA torch tensor whose data pointer is the
    memory fuser allocated (fuser._C._last_output_pointers), and torch can
    use it (a sum, and a clone equal to it);
  - the artifact path: the same call again through a second fusion (the
    runtime's allocator instead of torch's, so not the cached one), which
    finds the artifact the first compile wrote to FUSER_CACHE_DIR and
    loads it (cache counters: a disk hit, no compile) instead of compiling:
    its outputs must equal the first bit for bit;
  - the recorded IR equals the importer's reading of the script text;
  - against fuser's CPU reference (fuser.run's check, 1 ulp) when the
    inputs hold fewer than --reference-below elements (the reference is a
    CPU interpreter: the _large scripts' 268M elements would take minutes).

Prints one line per call and exits 1 when any check failed."""
import argparse
import os
import runpy
import sys

import torch

import fuser
from fuser import _C
from fuser import run as fuser_run


def bits(t):
    """t's bytes as integers of its element size: equal means bit for bit (NaNs too)."""
    return t.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])


def run_script(path):
    recorder = fuser_run._Recorder()
    stand_in = fuser_run._stand_in(recorder)
    base = stand_in.FusionDefinition

    class Recording(base):  # also where the outputs lie, right after the call
        def execute(self, inputs, **kw):
            out = base.execute(self, inputs, **kw)
            recorder.calls[-1] = recorder.calls[-1] + (_C._last_output_pointers(),)
            return out

    stand_in.FusionDefinition = Recording
    sys.modules["nvfuser"] = stand_in
    torch.manual_seed(0)
    saved = sys.argv
    sys.argv = [path]
    try:
        runpy.run_path(path, run_name="__main__")
    finally:
        sys.argv = saved
    return recorder


def check_script(path, reference_below, cuda):
    text = open(path).read()
    recorder = run_script(path)
    ok = True
    if not recorder.calls:
        print(f"{path}: FAILED: the script made no fd.execute call")
        return False
    # (a snapshot: the checks below call fd.execute again, past the recorder)
    for n, (fd, inputs, outputs, ptrs) in enumerate(list(recorder.calls)):
        notes, call_ok = [], len(outputs) == len(ptrs)
        for k, g in enumerate(outputs):
            if not (isinstance(g, torch.Tensor) and g.is_cuda == cuda):
                call_ok = False
                notes.append(f"output {k} is not a {'CUDA' if cuda else 'CPU'} torch tensor")
                continue
            if k < len(ptrs) and g.data_ptr() != ptrs[k]:
                call_ok = False
                notes.append(f"output {k} is a copy ({g.data_ptr():#x}, fuser's {ptrs[k]:#x})")
            g.float().sum().item()  # torch computes with it
            if not torch.equal(bits(g.clone()), bits(g)):
                call_ok = False
                notes.append(f"output {k}: torch's clone differs")
        if call_ok:
            notes.append("outputs are fuser's memory, used by torch")
        if cuda:  # the artifact path: a second fusion that loads the artifact from disk
            _C._set_allocator("runtime")
            try:
                again = fuser.FusionDefinition.execute(fd, inputs)  # not recorded
            finally:
                _C._set_allocator("torch")
            stats = fd.cache_stats()  # the runtime-allocator fusion's counters
            same = len(again) == len(outputs) and all(torch.equal(bits(a), bits(b)) for a, b in zip(again, outputs))
            loaded = stats is not None and stats["disk_hits"] >= 1 and stats["compiles"] == 0
            call_ok &= same and loaded
            notes.append(("equal bit for bit to " if same else "DIFFERENT from ")
                         + ("the artifact loaded from disk" if loaded else f"a second compile (not from disk: {stats})"))
        try:
            _, h = fuser.import_script(text, path)
            call_ok &= h == fd.hash
            notes.append("IR equals the importer's" if h == fd.hash else "IR differs from the importer's")
        except fuser.FuserError as e:
            notes.append(f"(the importer does not read this script: {e})")
        numel = sum(x.numel() for x in inputs if isinstance(x, torch.Tensor))
        if numel < reference_below:
            ref = fuser.FusionDefinition.execute(fd, [fuser_run._to_cpu(x) for x in inputs], cpu_backend="reference")
            for k, (g, w) in enumerate(zip(outputs, ref)):
                good, msg = fuser_run._compare(g, w, f"output {k} vs the CPU reference")
                call_ok &= good
                notes.append(msg)
        else:
            notes.append(f"(no CPU reference: {numel} input elements)")
        print(f"{os.path.basename(path)} execute #{n + 1}: {'ok' if call_ok else 'FAILED'}: " + "; ".join(notes))
        ok &= call_ok
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference-below", type=int, default=1 << 22)
    p.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                   help="cpu: a dry run here (torch's factories give CPU tensors; no artifact check)")
    p.add_argument("scripts", nargs="+")
    a = p.parse_args()
    cuda = a.device == "cuda"
    if not cuda:
        fuser_run._redirect_torch_to_cpu()
    if cuda and not os.environ.get("FUSER_CACHE_DIR"):
        print("python_check.py: set FUSER_CACHE_DIR (an empty folder): the artifact check loads from it", file=sys.stderr)
        return 2
    print(f"fuser binding on torch {torch.__version__}, CUDA {torch.cuda.is_available()}, "
          f"exchange API {_C._exchange_api(torch.empty(0))}")
    ok = True
    for s in a.scripts:
        try:
            ok &= check_script(s, a.reference_below, cuda)
        except Exception as e:  # one script's failure does not hide the others'
            print(f"{os.path.basename(s)}: FAILED: {type(e).__name__}: {e}")
            ok = False
    print("all checks passed" if ok else "SOME CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
