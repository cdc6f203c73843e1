# An index out of range (issue 16): the indices reach 64 but the table has
# 50 rows (and -1 is out of range too: torch does not wrap negative
# indices). Every run must fail with the index error at the index_select's
# line; no kernel reads outside the table.
import torch
from nvfuser import FusionDefinition, DataType

def index_oob(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    T2 = fd.ops.index_select(T0, T1, dim=0)
    T3 = fd.ops.add(T2, 1.0)
    fd.add_output(T3)

with FusionDefinition() as fd:
    index_oob(fd)

inputs = [
    torch.randn((50, 64), dtype=torch.float32, device='cuda:0'),
    torch.randint(-1, 64, (300,), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
