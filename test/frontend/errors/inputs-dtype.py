# Error: an input tensor of the wrong dtype.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.neg(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
# CHECK: inputs-dtype.py:[[@LINE+1]]:5: error: inputs: entry 0 has dtype bf16 but fusion input 0 is f32
    torch.randn((2, 3), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
