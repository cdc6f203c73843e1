# Error: a file cut right after the def line.
# RUN: rm -f %t.mlir
# RUN: not fuser-translate --import-nvfuser %s -o %t.mlir 2>&1 | FileCheck %s
# RUN: not test -e %t.mlir
# CHECK: truncated-def.py:[[@LINE+4]]:56: error: unexpected end of file: expected an indented block
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :