# Error: stride_order repeating a rank.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: stride-order-not-permutation.py:[[@LINE+1]]:128: error: define_tensor stride_order is not a permutation of [0, 4)
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, False, False, True], dtype=DataType.BFloat16, stride_order=[3, 1, 1, 0])
    fd.add_output(T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
