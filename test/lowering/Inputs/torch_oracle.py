# torch_oracle.py: writes a case file for fuser-cpu-check from an nvFuser
# repro script run on the CPU by ../shared/bench/nvfuser_torch.py (PyTorch
# eager stand-ins for nvFuser's ops, with nvFuser's type promotion).
#
#   /usr/bin/python3 torch_oracle.py script.py case.bin [script|misaligned|odd]
#
#   script      the script's own inputs
#   misaligned  the script's inputs, each placed one element off a 64-byte
#               boundary (the vectorized variants' alignment conditions fail)
#   odd         2-D inputs of 257 x 1001 (only for fusions whose shapes are free)
import sys

import torch

sys.path.insert(0, sys.argv[4] if len(sys.argv) > 4 else '../shared/bench')
import nvfuser_torch  # noqa: E402

NAMES = {torch.bfloat16: 'bf16', torch.float16: 'f16', torch.float32: 'f32', torch.float64: 'f64',
         torch.bool: 'i1', torch.int32: 'i32', torch.int64: 'i64'}
RAW = {torch.bfloat16: torch.int16, torch.float16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64,
       torch.bool: torch.uint8, torch.int32: torch.int32, torch.int64: torch.int64}


def storage_of(t):
    """The smallest storage holding t's elements, and t's offset in it."""
    if t.numel() == 0:
        return torch.zeros(1, dtype=t.dtype), 0
    span = 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()) if s > 0)
    base = torch.as_strided(t, (span,), (1,))
    return base.contiguous(), 0


def write_tensor(f, t, with_layout, shift=0):
    dims = ' '.join(str(s) for s in t.shape)
    if with_layout:
        # the storage from element 0 on, after `shift` padding elements:
        # fuser-cpu-check places the storage 64-byte aligned, so a shift of
        # one element misaligns every vector access
        store, _ = storage_of(t)
        if shift:
            store = torch.cat([torch.zeros(shift, dtype=t.dtype), store])
        strides = ' '.join(str(s) for s in t.stride())
        f.write(f'tensor {NAMES[t.dtype]} {t.dim()} {dims} {strides} {shift} {store.numel()}\n'.encode())
        raw = store.to(torch.uint8) if t.dtype == torch.bool else store.view(RAW[t.dtype])
        f.write(raw.numpy().tobytes())
    else:
        f.write(f'tensor {NAMES[t.dtype]} {t.dim()} {dims}\n'.encode())
        f.write(t.to(torch.float64).contiguous().numpy().tobytes())
    f.write(b'\n')


def main():
    script, out, mode = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else 'script'
    # the scripts' own torch.randn inputs, the same in every run: unseeded,
    # 1 run in ~10 of bias_grad_small drew a column whose bf16 sum is 2 ulp
    # from the eager oracle's (a clean clone's corpus-cpu.test failed so)
    torch.manual_seed(0)
    fd, inputs, outputs = nvfuser_torch.run_script(script, device='cpu')
    shift = 1 if mode == 'misaligned' else 0
    if mode == 'odd':
        torch.manual_seed(0)
        inputs = [torch.randn(257, 1001, dtype=t.dtype) if isinstance(t, torch.Tensor) and t.dim() == 2 else t
                  for t in inputs]
    outputs = fd.run(inputs)
    with open(out, 'wb') as f:
        f.write(f'inputs {len(inputs)}\n'.encode())
        for t in inputs:
            if isinstance(t, torch.Tensor):
                write_tensor(f, t, True, shift)
            else:
                kind = 'f64' if isinstance(t, float) else 'i1' if isinstance(t, bool) else 'i64'
                f.write(f'scalar {kind} {float(t)!r}\n'.encode())
        f.write(f'outputs {len(outputs)}\n'.encode())
        for t in outputs:
            write_tensor(f, t, False)


if __name__ == '__main__':
    main()
