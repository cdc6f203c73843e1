# Error: random numbers need rng_seed and rng_offset (no generator state).
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
# CHECK: rng-no-seed.py:[[@LINE+1]]:10: error: fd.ops.rand_like: rng_seed and rng_offset are required (fuser has no global generator state)
    T1 = fd.ops.rand_like(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)
