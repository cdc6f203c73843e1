# Error: fd.ops.welford returns three values (avg, var_sum, n).
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: rm -f %t.mlir && not fuser-translate --import-nvfuser %s -o %t.mlir 2>/dev/null; test ! -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: welford-names.py:[[@LINE+1]]:5: error: fd.ops.welford returns 3 values but 2 names are assigned
    T1, T2 = fd.ops.welford(T0, dims=[1])
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
