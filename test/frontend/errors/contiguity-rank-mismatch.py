# Error: contiguity shorter than the shape.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: contiguity-rank-mismatch.py:[[@LINE+1]]:58: error: define_tensor contiguity has 2 entries but shape has rank 3
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True], dtype=DataType.Float)
    fd.add_output(T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
