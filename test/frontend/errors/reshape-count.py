# Error: a static reshape that changes the element count.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[4, 6], contiguity=[True, True], dtype=DataType.Float)
# CHECK: reshape-count.py:[[@LINE+1]]:10: error: fd.ops.reshape: reshape changes the element count from 24 to 25
    T2 = fd.ops.reshape(T1, new_shape=[5, 5])
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
