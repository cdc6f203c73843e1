"""ncu_peers.py: torch.compile's kernels of nvFuser-format scripts, for ncu.
Each script is compiled (dynamic=False, as peers.py does) and called three
times to warm up; then one call runs between cudaProfilerStart/Stop, so
`ncu --profile-from-start off -k regex:triton` profiles only warm kernels
(the same L2 state as a replayed graph when run with --cache-control none).
Usage: ncu --profile-from-start off ... python3 ncu_peers.py DIR SCRIPT...
(DIR holds nvfuser_torch.py, the PyTorch stand-in for nvFuser)."""
import os, sys
sys.path.insert(0, sys.argv[1])
import torch
import nvfuser_torch
nvfuser_torch.install()

for p in sys.argv[2:]:
    ns = {}
    exec(compile(open(p).read(), p, 'exec'), ns)
    fd, inputs = ns['fd'], ns['inputs']
    torch._dynamo.reset()
    comp = torch.compile(lambda *xs: fd.run(list(xs)), dynamic=False)
    for _ in range(3):
        comp(*inputs)
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    comp(*inputs)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
    print("profiled", os.path.basename(p), flush=True)
