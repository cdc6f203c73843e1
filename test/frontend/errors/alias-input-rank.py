# Error: an aliased output has its input's rank
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[4, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.neg(T0)
    T3 = fd.ops.sum(T2, dims=[0], keepdim=False, dtype=DataType.Null)
# CHECK: alias-input-rank.py:[[@LINE+1]]:23: error: fd.add_output alias_input: the output has rank 1 but the input has rank 2
    fd.add_output(T3, T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
