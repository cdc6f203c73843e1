# Error: broadcast_dims longer than the input's rank, with a -1 extent that
# would be read from the (missing) input dim 2. The importer once read that
# extent out of bounds (inside libMLIR, so no sanitizer saw it); the rank
# mismatch is now reported before any extent is read.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: broadcast-dims-longer.py:[[@LINE+1]]:10: error: fd.ops.broadcast_in_dim: broadcast_dims has 3 entries for an input of rank 2
    T1 = fd.ops.broadcast_in_dim(T0, shape=[4, 4, -1], broadcast_dims=[0, 1, 2])
    fd.add_output(T1)
