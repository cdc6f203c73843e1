# Error: add_output's alias_input must name a define_tensor input
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[4, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.neg(T0)

# CHECK: alias-input.py:[[@LINE+1]]:35: error: fd.add_output alias_input must be a tensor defined by fd.define_tensor
    fd.add_output(T0, alias_input=T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
