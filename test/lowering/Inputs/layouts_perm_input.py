import torch
from nvfuser import FusionDefinition, DataType
# A permute [0, 2, 1, 3] of an input (a strided view after
# fuser-alias-meta-ops), then compute: the output follows the input's
# allocation order, so the kernel walks it in memory order and the flat
# vector variant runs (before: the rows variant, 3 divisions per vector).
def fusion_perm_input(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T1 = fd.ops.permute(T0, dims=[0, 2, 1, 3])
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    T3 = fd.ops.mul(T2, T2)
    T4 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    fd.add_output(T4)
with FusionDefinition() as fd:
    fusion_perm_input(fd)
inputs = [torch.randn((2, 3, 40, 16), dtype=torch.bfloat16, device='cuda:0')]
fd.execute(inputs)
