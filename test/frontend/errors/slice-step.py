# Error: a slice with step 2.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: slice-step.py:[[@LINE+1]]:10: error: fd.ops.slice: slice stride 2 in dim 0 is not supported (only 1)
    T1 = fd.ops.slice(T0, start_indices=[0, 0], end_indices=[4, 4], strides=[2, 1])
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
