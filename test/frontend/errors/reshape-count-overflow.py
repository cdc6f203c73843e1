# Regression (found by fuzz_import under UBSan): the element count of a
# static reshape overflowed int64 and wrapped, so 2^32 x 2^32 -> [0]
# passed as "same count". The overflow is now an error.
# RUN: not fuser-translate --import-nvfuser %s 2>&1 | FileCheck %s
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4294967296, 4294967296], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
# CHECK: reshape-count-overflow.py:[[@LINE+1]]:10: error: fd.ops.reshape: element count of the input overflows int64
    T1 = fd.ops.reshape(T0, new_shape=[0])
    fd.add_output(T1)
