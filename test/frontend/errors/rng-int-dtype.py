# Error: random numbers are floating point.
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    S0 = fd.define_scalar(None, dtype=DataType.Int)
    S1 = fd.define_scalar(None, dtype=DataType.Int)
# CHECK: rng-int-dtype.py:[[@LINE+1]]:80: error: fd.ops.uniform: dtype must be a floating-point type
    T2 = fd.ops.uniform(0.0, 1.0, shape=[4], rng_seed=S0, rng_offset=S1, dtype=DataType.Int)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
