# A plan with no kernels: the output is a view (an alias) of the input, a
# reshape of its two `?` dims into [4, 8]. The view relies on the input
# having 32 elements; the recipe below gives it 64 (8 x 8), which the
# reference refuses (reshape of 64 elements into 32).
import torch
from nvfuser import FusionDefinition, DataType

def reshape_alias_view(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.reshape(T0, new_shape=[4, 8])
    fd.add_output(T1)

with FusionDefinition() as fd:
    reshape_alias_view(fd)

inputs = [
    torch.randn((8, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
