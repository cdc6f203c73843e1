# Error: a fusion named like a name the script needs.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

# CHECK: reserved-def-name.py:[[@LINE+1]]:1: error: the fusion definition cannot be named 'torch' (the script needs that name)
def torch(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    fd.add_output(T0)
