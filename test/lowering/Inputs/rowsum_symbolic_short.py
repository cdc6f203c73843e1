import torch
from nvfuser import FusionDefinition, DataType

# A row sum of squares (positive terms: an f32 sum within an ulp or two of the
# exact one) over a symbolic row length (no broadcast fixes it): a short row
# fails the cluster variant's row_length condition: the looped variant.
def rowsum_symbolic_short(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.mul(T1, T1)
    T3 = fd.ops.sum(T2, dims=[1], keepdim=False, dtype=DataType.Null)
    fd.add_output(T3)

with FusionDefinition() as fd:
    rowsum_symbolic_short(fd)

inputs = [
    torch.randn((5, 4000), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
