# Error: a factory's static shape entry below 0 (full and the RNG ops share
# the rule; -1 is a symbolic size only in define_tensor).
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
# RUN: sed "s/\[2, -3\]/[2, 2]/" %s > %t.rand.py
# RUN: not fuser-translate --import-nvfuser %t.rand.py -o %t.mlir 2>&1 | FileCheck %s --check-prefix=RAND
# RUN: not test -e %t.mlir
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    S0 = fd.define_scalar(None, dtype=DataType.Int)
    S1 = fd.define_scalar(None, dtype=DataType.Int)
# CHECK: factory-negative-extent.py:[[@LINE+1]]:28: error: fd.ops.full: shape entry 1 is -3; extents must be >= 0
    T0 = fd.ops.full(shape=[2, -3], fill_value=1.0, dtype=DataType.Float)
# RAND: :[[@LINE+1]]:41: error: fd.ops.uniform: shape entry 1 is -5; extents must be >= 0
    T1 = fd.ops.uniform(0.0, 1.0, shape=[4, -5], rng_seed=S0, rng_offset=S1, dtype=DataType.Float)
    fd.add_output(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
