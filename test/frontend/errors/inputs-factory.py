# Error: an unsupported torch factory.
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
# CHECK: inputs-factory.py:[[@LINE+1]]:11: error: inputs: unsupported torch factory 'torch.tensor' (randn, rand, ones, zeros, full, arange, empty, randint, testing.make_tensor)
    torch.tensor([1.0], dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
