# Error: fd.ops.at of something that is not a vector.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: at-not-vector.py:[[@LINE+1]]:20: error: fd.ops.at arg must be a vector (fd.define_vector, fd.ops.shape)
    S1 = fd.ops.at(T0, 0)
    fd.add_output(T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
