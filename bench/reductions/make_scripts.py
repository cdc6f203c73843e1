"""Writes nvFuser-format scripts of reduction patterns, for the GPU sweep
(bench/gpu/reductions.sh) and the tests: RMSNorm and softmax over a row of
N bf16 columns with rows = ELEMS / N (about 1 GB moved per case: the bf16
input read once and the output written once), for every N given.

Usage: python3 make_scripts.py OUT_DIR [--elems E] N...
Writes OUT_DIR/rmsnorm_n<N>.py and OUT_DIR/softmax_n<N>.py."""
import os
import sys

RMSNORM = '''import torch
from nvfuser import FusionDefinition, DataType

def rmsnorm_n{n}(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T3 = fd.ops.mul(T2, T2)
    T4 = fd.ops.sum(T3, dims=[1], keepdim=False, dtype=DataType.Null)
    S5 = fd.define_scalar({n}.0, dtype=DataType.Double)
    T6 = fd.ops.div(T4, S5)
    T7 = fd.ops.broadcast_in_dim(T6, shape=[{rows}, 1], broadcast_dims=[0])
    S8 = fd.define_scalar(1e-06, dtype=DataType.Double)
    T9 = fd.ops.add(T7, S8)
    T10 = fd.ops.rsqrt(T9)
    T11 = fd.ops.broadcast_in_dim(T10, shape=[{rows}, {n}], broadcast_dims=[0, 1])
    T12 = fd.ops.mul(T2, T11)
    T13 = fd.ops.broadcast_in_dim(T1, shape=[{rows}, {n}], broadcast_dims=[1])
    T14 = fd.ops.cast(T13, dtype=DataType.Float)
    T15 = fd.ops.mul(T12, T14)
    T16 = fd.ops.cast(T15, dtype=DataType.BFloat16)
    fd.add_output(T16)

with FusionDefinition() as fd:
    rmsnorm_n{n}(fd)

inputs = [
    torch.randn(({rows}, {n}), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn(({n},), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
'''

SOFTMAX = '''import torch
from nvfuser import FusionDefinition, DataType

def softmax_n{n}(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[{rows}, {n}], broadcast_dims=[0])
    T4 = fd.ops.sub(T1, T3)
    T5 = fd.ops.exp(T4)
    T6 = fd.ops.sum(T5, dims=[1], keepdim=False, dtype=DataType.Null)
    T7 = fd.ops.broadcast_in_dim(T6, shape=[{rows}, {n}], broadcast_dims=[0])
    T8 = fd.ops.div(T5, T7)
    T9 = fd.ops.cast(T8, dtype=DataType.BFloat16)
    fd.add_output(T9)

with FusionDefinition() as fd:
    softmax_n{n}(fd)

inputs = [
    torch.randn(({rows}, {n}), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
'''


def main():
    args = sys.argv[1:]
    out = args.pop(0)
    elems = 1 << 28
    if args and args[0] == "--elems":
        elems = int(args[1])
        args = args[2:]
    os.makedirs(out, exist_ok=True)
    for n in map(int, args):
        rows = max(1, elems // n)
        for name, text in (("rmsnorm", RMSNORM), ("softmax", SOFTMAX)):
            with open(os.path.join(out, f"{name}_n{n}.py"), "w") as f:
                f.write(text.format(n=n, rows=rows))


if __name__ == "__main__":
    main()
