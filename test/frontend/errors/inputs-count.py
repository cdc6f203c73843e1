# Error: an inputs block with one entry too many.
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

# CHECK: inputs-count.py:[[@LINE+1]]:10: error: inputs has 2 entries but the fusion has 1 input
inputs = [
    torch.randn((2, 3), dtype=torch.float32, device='cuda:0'),
    torch.randn((2, 3), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
