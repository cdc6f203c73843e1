import torch
from nvfuser import FusionDefinition, DataType

# A misaligned f32 output (vectors of 4): an input updated in place whose
# rows of 64 floats lie 65 apart (every misalignment occurs).
def fusion_store_shift_f32(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.mul(T0, 3.0)
    T2 = fd.ops.sub(T1, T0)
    fd.add_output(T2, alias_input=T0)

with FusionDefinition() as fd:
    fusion_store_shift_f32(fd)

inputs = [
    torch.randn((12, 65), dtype=torch.float32, device='cuda:0').as_strided((12, 64), (65, 1)),
]
fd.execute(inputs)
