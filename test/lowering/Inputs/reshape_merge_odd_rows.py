import torch
from nvfuser import FusionDefinition, DataType

# merge_heads of a view whose rows are 65 elements apart (x[..., 1:] of a
# (2, 4, 64, 65) tensor): the `stride` conditions of the dims the lanes do not
# move along fail, so the mixed variant runs, each row's misalignment its own
# (shifted loads through the reshape's delinearized index).
def fusion_reshape_merge_odd_rows(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T0s = fd.ops.slice(T0, start_indices=[0, 0, 0, 1], end_indices=[2, 4, 64, 65], strides=[1, 1, 1, 1])
    T1 = fd.ops.mul(T0s, T0s)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T3 = fd.ops.permute(T2, dims=[0, 2, 1, 3])
    T4 = fd.ops.reshape(T3, new_shape=[2, 64, 256])
    fd.add_output(T4)

with FusionDefinition() as fd:
    fusion_reshape_merge_odd_rows(fd)

inputs = [
    torch.randn((2, 4, 64, 65), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
