# Error: a script without a fusion definition.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
# CHECK: no-fusion.py:[[@LINE+3]]:1: error: no fusion definition ('def nvfuser_fusion_idN(fd : FusionDefinition) -> None :') in the script
import torch
from nvfuser import FusionDefinition, DataType
