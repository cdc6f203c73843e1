# Error: a real nvFuser op that fuser does not implement.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: unsupported-nvfuser-op.py:[[@LINE+1]]:17: error: unsupported op 'fd.ops.scatter' (not in the fuser dialect)
    T1 = fd.ops.scatter(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
