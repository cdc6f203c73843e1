import torch
from nvfuser import FusionDefinition, DataType

# A misaligned bool output (vectors of 16 one-byte lanes): a mask input
# updated in place whose rows of 128 lie 129 apart (every misalignment).
def fusion_store_shift_bool(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.ne(T0, T1)
    fd.add_output(T2, alias_input=T0)

with FusionDefinition() as fd:
    fusion_store_shift_bool(fd)

inputs = [
    torch.randint(0, 2, (20, 129), dtype=torch.bool, device='cuda:0').as_strided((20, 128), (129, 1)),
    torch.randint(0, 2, (20, 128), dtype=torch.bool, device='cuda:0'),
]
fd.execute(inputs)
