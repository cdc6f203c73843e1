"""Every small corpus script (seed/*.py, visible/*_small.py) runs unchanged
through fuser.FusionDefinition on CPU torch tensors (python3 -m fuser.run
--device cpu): torch tensors in and out, the recorded fusion equal to the
importer's reading of the script, the outputs of the CPU JIT
(FUSER_CPU_BACKEND=jit) equal to the reference evaluator's, and the
reference's outputs equal to an independent oracle, the scripts evaluated
op by op with torch (../shared/bench/nvfuser_torch.py, when present)."""
import glob
import os
import subprocess
import sys

import common

common.need_torch()
corpus = common.corpus_dir()
if not corpus:
    print("SKIP: no corpus (FUSER_CORPUS_DIR)")
    sys.exit(common.SKIP)
scripts = sorted(glob.glob(os.path.join(corpus, "seed", "*.py")) + glob.glob(os.path.join(corpus, "visible", "*_small.py")))
common.check(len(scripts) > 0, f"{len(scripts)} small scripts")
oracle_dir = os.path.join(os.path.dirname(os.path.abspath(corpus)), "bench")
has_oracle = os.path.exists(os.path.join(oracle_dir, "nvfuser_torch.py"))

for path in scripts:
    name = os.path.basename(path)
    r = subprocess.run([sys.executable, "-m", "fuser.run", "--device", "cpu", path], capture_output=True, text=True)
    out = (r.stdout + r.stderr).strip()
    common.check(r.returncode == 0 and "IR equals the importer's" in out, f"{name}: {out}")
    # the CPU JIT of the compiled loops, checked by fuser.run against the reference evaluator
    env = dict(os.environ, FUSER_CPU_BACKEND="jit")
    rj = subprocess.run([sys.executable, "-m", "fuser.run", "--device", "cpu", path], capture_output=True, text=True, env=env)
    outj = (rj.stdout + rj.stderr).strip()
    common.check(rj.returncode == 0 and "0 beyond 1 ulp" in outj, f"{name} (CPU JIT): {outj}")
    if not has_oracle or r.returncode:
        continue
    # the same script under the torch stand-in, outputs compared with fuser's
    code = f"""
import sys, torch
sys.path.insert(0, {oracle_dir!r})
import nvfuser_torch
from fuser import run as frun
fd, inputs, want = nvfuser_torch.run_script({path!r}, device='cpu')
rec = frun._Recorder()
sys.modules['nvfuser'] = frun._stand_in(rec)
torch.manual_seed(0)
frun._redirect_torch_to_cpu()
import runpy
runpy.run_path({path!r}, run_name='__main__')
(fd2, inputs2, got) = rec.calls[0]
got = fd2.execute(inputs)   # on the oracle's inputs
worst = 0.0
for g, w in zip(got, want):
    assert isinstance(g, torch.Tensor) and g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    d = (g.double() - w.double()).abs() / (w.double().abs() + 1)
    worst = max(worst, float(d.max()) if d.numel() else 0.0)
tol = {{torch.bfloat16: 2 ** -7, torch.float16: 2 ** -10}}.get(want[0].dtype, 1e-5)
print(f"vs torch oracle: worst relative difference {{worst:.3g}} (tolerance {{tol:.3g}})")
sys.exit(0 if len(got) == len(want) and worst <= tol else 1)
"""
    r2 = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    common.check(r2.returncode == 0, f"{name}: {(r2.stdout + r2.stderr).strip()[-600:]}")

common.finish()
