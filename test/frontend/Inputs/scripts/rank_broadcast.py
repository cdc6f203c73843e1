# Operands of different rank (issue 16): nvFuser casts every operand to the
# common dtype, then broadcasts lower ranks on their leading dims. A 0-dim
# tensor (here a CPU scalar tensor of f32) ranks between scalars and tensors:
# bf16 * f32 0-dim computes in f32 (the bf16 tensor decides, then half->f32),
# an int tensor + f32 0-dim gives f32 (the float category wins), a compare
# of bf16 against it casts it to bf16, and where takes it as a value.
import torch
from nvfuser import FusionDefinition, DataType

def rank_broadcast(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=True)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T4 = fd.ops.mul(T0, T1)
    T5 = fd.ops.add(T2, T1)
    T6 = fd.ops.gt(T0, T1)
    T7 = fd.ops.where(T6, T1, T0)
    T8 = fd.ops.sub(T3, T0)
    T9 = fd.ops.add(T5, T4)
    fd.add_output(T7)
    fd.add_output(T8)
    fd.add_output(T9)

with FusionDefinition() as fd:
    rank_broadcast(fd)

inputs = [
    torch.testing.make_tensor((2, 3, 5), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cpu'),
    torch.randint(-5, 5, (5,), dtype=torch.int64, device='cuda:0'),
    torch.testing.make_tensor((3, 1), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs, device=0)
