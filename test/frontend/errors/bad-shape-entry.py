# Error: a shape entry below -1.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: bad-shape-entry.py:[[@LINE+1]]:34: error: define_tensor shape entry -2 is invalid: use -1 (symbolic), 0, 1 (broadcast) or a static extent
    T1 = fd.define_tensor(shape=[-2, 4], contiguity=[True, True], dtype=DataType.Float)
    fd.add_output(T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
