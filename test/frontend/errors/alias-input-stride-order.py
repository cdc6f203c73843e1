# Error: an aliased output takes its input's layout, no stride_order
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[4, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.neg(T0)

# CHECK: alias-input-stride-order.py:[[@LINE+1]]:52: error: fd.add_output takes alias_input or stride_order, not both (an aliased output has its input's layout)
    fd.add_output(T2, alias_input=T0, stride_order=[0, 1])

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
