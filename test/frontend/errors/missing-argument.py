# Error: cast without its dtype.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: missing-argument.py:[[@LINE+1]]:10: error: fd.ops.cast is missing argument 'dtype'
    T1 = fd.ops.cast(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
