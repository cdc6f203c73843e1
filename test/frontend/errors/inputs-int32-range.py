# Error: a scalar input beyond the range of its Int32 input.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    S1 = fd.define_scalar(None, dtype=DataType.Int32)
    T2 = fd.ops.mul(T0, S1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn((2, 3), dtype=torch.float32, device='cuda:0'),
# CHECK: inputs-int32-range.py:[[@LINE+1]]:5: error: inputs: entry 1 is 4294967296, out of range for fusion input 1 (i32)
    4294967296,
]
fd.execute(inputs)
