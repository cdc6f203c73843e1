import torch
from nvfuser import FusionDefinition, DataType

# Four bool inputs read across their rows: tiles of 128 x 128 would take
# 4 x 16 KiB of shared memory, more than a block has (test/lowering/layouts.test).
def fusion_four_bool(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    P1 = fd.ops.permute(T1, dims=[1, 0])
    P2 = fd.ops.permute(T2, dims=[1, 0])
    P3 = fd.ops.permute(T3, dims=[1, 0])
    P4 = fd.ops.permute(T4, dims=[1, 0])
    A = fd.ops.logical_and(T0, P1)
    B = fd.ops.logical_and(P2, P3)
    C = fd.ops.logical_and(A, B)
    D = fd.ops.logical_and(C, P4)
    fd.add_output(D)

with FusionDefinition() as fd:
    fusion_four_bool(fd)

inputs = [
    torch.randint(0, 2, (256, 512), dtype=torch.bool, device='cuda:0'),
    torch.randint(0, 2, (512, 256), dtype=torch.bool, device='cuda:0'),
    torch.randint(0, 2, (512, 256), dtype=torch.bool, device='cuda:0'),
    torch.randint(0, 2, (512, 256), dtype=torch.bool, device='cuda:0'),
    torch.randint(0, 2, (512, 256), dtype=torch.bool, device='cuda:0'),
]
fd.execute(inputs)
