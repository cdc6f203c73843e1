# fd.ops.linear (issue 16): input [..., K] @ weight.T + bias, weight [N, K].
# bf16 with a [N] bias (cuBLASLt's bias epilogue adds it to the f32 sum and
# rounds once), and f32 without one (bias=None).
import torch
from nvfuser import FusionDefinition, DataType

def linear_bias(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T5 = fd.ops.linear(T0, T1, T2)
    T6 = fd.ops.linear(T3, T4, bias=None)
    fd.add_output(T5)
    fd.add_output(T6)

with FusionDefinition() as fd:
    linear_bias(fd)

inputs = [
    torch.testing.make_tensor((2, 6, 32), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((24, 32), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((24,), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((5, 16), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((8, 16), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs, device=0)
