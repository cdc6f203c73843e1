import torch
from nvfuser import FusionDefinition, DataType

# merge_slice_permute.py with static input shapes: static strides 1, 14, 210.
# :7, :9] from inputs of 14 x 15 x 16 stored dim 0 fastest (strides 1, 14,
# 210). The inputs' strides nest (14 = 1 x 14, 210 = 14 x 15), but the
# access walks only 9 of a row's 14: the flat vector variant took the 1008
# points as one run and read the wrong elements (the layout fuzzer's case
# 15049, 999 of 1008 wrong on the CPU JIT).
def fusion_merge_slice_static(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[14, 15, 16], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 2])
    T2 = fd.define_tensor(shape=[14, 15, 16], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 2])
    T7 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[False, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    T3 = fd.ops.mul(T1, T2)
    T4 = fd.ops.permute(T3, dims=[2, 1, 0])
    T5 = fd.ops.slice(T4, start_indices=[0, 0, 0], end_indices=[16, 7, 9], strides=[1, 1, 1])
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion_merge_slice_static(fd)

inputs = [
    torch.randn((3361,), dtype=torch.float16, device='cuda:0').as_strided((14, 15, 16), (1, 14, 210), 0),
    torch.randn((3361,), dtype=torch.float16, device='cuda:0').as_strided((14, 15, 16), (1, 14, 210), 0),
    torch.randn((1024,), dtype=torch.float16, device='cuda:0').as_strided((16, 7, 9), (64, 9, 1), 0),
]
fd.execute(inputs)
