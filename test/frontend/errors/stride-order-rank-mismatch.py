# Error: stride_order longer than the shape.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: stride-order-rank-mismatch.py:[[@LINE+1]]:103: error: define_tensor stride_order has 3 entries but shape has rank 2
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, stride_order=[2, 1, 0])
    fd.add_output(T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
