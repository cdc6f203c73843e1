import torch
from nvfuser import FusionDefinition, DataType

# The rows variant on short rows: a permute [1, 0, 2] of rows of 8 floats
# (2 vectors of 4), written row-major (add_output's stride_order), so the
# output's dims 0 and 1 nest in the other order than the input's.
def fusion_rows_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.ops.neg(T0)
    T2 = fd.ops.permute(T1, dims=[1, 0, 2])
    fd.add_output(T2, stride_order=[2, 1, 0])

with FusionDefinition() as fd:
    fusion_rows_f32(fd)

inputs = [
    torch.randn((7, 5, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
