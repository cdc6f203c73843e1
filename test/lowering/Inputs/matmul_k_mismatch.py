# matmul_2d with a K that disagrees at run time (40 against 36): both K dims
# are symbolic, so the import accepts it and the run refuses it.
import torch
from nvfuser import FusionDefinition, DataType

def matmul_2d(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T4 = fd.ops.matmul(T0, T1)
    T5 = fd.ops.matmul(T2, T3)
    fd.add_output(T4)
    fd.add_output(T5)

with FusionDefinition() as fd:
    matmul_2d(fd)

inputs = [
    torch.testing.make_tensor((24, 40), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((32, 36), dtype=torch.bfloat16, device="cuda:0").as_strided((36, 32), (1, 36)),
    torch.testing.make_tensor((40,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((40, 16), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs, device=0)
