# Error: a float constant declared Int.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: scalar-float-as-int.py:[[@LINE+1]]:27: error: define_scalar value 1.5 is a float but dtype is DataType.Int
    S1 = fd.define_scalar(1.5, dtype=DataType.Int)
    T1 = fd.ops.mul(T0, S1)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
