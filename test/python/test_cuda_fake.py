"""The binding's CUDA path without a GPU: the runtime opens the fake libcuda
(test/driver/fake_cuda.c, FUSER_CUDA_LIBRARY), whose "device" memory is host
memory and whose launches are recorded, not run. A DLPack producer made here
with ctypes hands out kDLCUDA tensors. Checked: the consumer stream protocol
(__dlpack__ gets the stream= of execute, or 1 for the legacy default
stream), a compile on the first call and a cache hit on the second, the
launch on the caller's stream, outputs as DLPack CUDA tensors that free
their memory on that stream, and the errors of mixed devices."""
import ctypes
import os
import sys

import common

fake = os.environ.get("FUSER_CUDA_LIBRARY")
if not fake or not os.path.exists(fake):
    print("SKIP: no fake libcuda (FUSER_CUDA_LIBRARY)")
    sys.exit(common.SKIP)
common.need_torch()  # numpy: the storage of the fake device tensors
import numpy as np

from fuser import DataType, FusionDefinition, FuserError

check, raises = common.check, common.raises


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = ctypes.c_void_p
PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class FakeCudaTensor:
    """A float32 'CUDA' tensor over host memory, for DLPack consumers."""

    def __init__(self, array, device_id=0):
        self.array = np.ascontiguousarray(array, dtype=np.float32)
        self.shape = (ctypes.c_int64 * self.array.ndim)(*self.array.shape)
        self.m = DLManagedTensor()
        t = self.m.dl_tensor
        t.data = self.array.ctypes.data
        t.device = DLDevice(2, device_id)  # kDLCUDA
        t.ndim = self.array.ndim
        t.dtype = DLDataType(2, 32, 1)  # kDLFloat, 32 bits
        t.shape = self.shape
        t.strides = None
        self.streams = []

    def __dlpack_device__(self):
        return (2, self.m.dl_tensor.device.device_id)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return PyCapsule_New(ctypes.addressof(self.m), b"dltensor", None)


class FakeStats(ctypes.Structure):  # the head of fake_state (test/driver/fake_cuda.h)
    _fields_ = [("current_ctx", ctypes.c_void_p), ("module_loads", ctypes.c_int), ("module_unloads", ctypes.c_int),
                ("allocs", ctypes.c_int), ("frees", ctypes.c_int), ("memsets", ctypes.c_int)]


lib = ctypes.CDLL(fake)
state = FakeStats.in_dll(lib, "fake_cuda_state")

with FusionDefinition() as fd:
    a = fd.define_tensor([-1, -1], [True, True], DataType.Float)
    b = fd.define_tensor([-1, -1], [True, True], DataType.Float)
    fd.add_output(fd.ops.add(a, b))

x, y = FakeCudaTensor(np.ones((4, 8))), FakeCudaTensor(np.ones((4, 8)))
allocs0, frees0 = state.allocs, state.frees
(out,) = fd.execute([x, y])
check(x.streams == [1] and y.streams == [1], f"consumer stream protocol: legacy default stream is 1 ({x.streams})")
check(out.__dlpack_device__() == (2, 0), "the output is a CUDA DLPack tensor")
cap = out.__dlpack__()
m = DLManagedTensor.from_address(PyCapsule_GetPointer(cap, b"dltensor"))
check(m.dl_tensor.ndim == 2 and m.dl_tensor.shape[0] == 4 and m.dl_tensor.shape[1] == 8, "output shape")
check(m.dl_tensor.dtype.code == 2 and m.dl_tensor.dtype.bits == 32, "output dtype")
stats = fd.cache_stats()
check(stats["compiles"] == 1 and stats["entries"] == 1, f"compiled on the first call: {stats}")
check(state.allocs > allocs0, "the output was allocated on the device")
ptr0, allocs1 = m.dl_tensor.data, state.allocs
del cap, m, out
# dropping the output returns its block to the runtime's caching allocator:
# the next call on the same stream gets it again without asking the driver
(out,) = fd.execute([x, y])
cap = out.__dlpack__()
m = DLManagedTensor.from_address(PyCapsule_GetPointer(cap, b"dltensor"))
check(m.dl_tensor.data == ptr0 and state.allocs == allocs1, "dropping the output returns its memory for reuse")
del cap, m, out

(out2,) = fd.execute([x, y], stream=3)
stats = fd.cache_stats()
check(stats["compiles"] == 1 and stats["hits"] >= 1, f"second call is a cache hit: {stats}")
check(x.streams[-1] == 3, "execute(stream=3) hands stream 3 to the producer")
del out2

# the same definition in a new FusionDefinition shares the compiled fusion
with FusionDefinition() as fd2:
    a = fd2.define_tensor([-1, -1], [True, True], DataType.Float)
    b = fd2.define_tensor([-1, -1], [True, True], DataType.Float)
    fd2.add_output(fd2.ops.add(a, b))
fd2.execute([x, y])
check(fd2.cache_stats()["compiles"] == 1 and fd2.hash == fd.hash, "FusionCache: one fusion per IR")

# small calls compile their extents as constants (FUSER_SPECIALIZE_SMALL, the binding's default):
# another small shape is an entry of its own; calls of 4 MiB and up share their layout class's
(out,) = fd.execute([FakeCudaTensor(np.ones((8, 8))), FakeCudaTensor(np.ones((8, 8)))])
stats = fd.cache_stats()
check(stats["compiles"] == 2 and stats["entries"] == 2, f"another small shape: its own entry: {stats}")
del out
for shape in ((1024, 1024), (512, 2048)):  # 2 x 4 MiB, 2 x 4 MiB
    (out,) = fd.execute([FakeCudaTensor(np.ones(shape)), FakeCudaTensor(np.ones(shape))])
    del out
stats = fd.cache_stats()
check(stats["compiles"] == 3 and stats["entries"] == 3, f"two large shapes: one entry: {stats}")

# FUSER_SPECIALIZE_SIZES, read when a fusion is made: never (one entry per layout class), or a
# located error for a value it does not know
def sub_fusion():
    with FusionDefinition() as f:
        a = f.define_tensor([-1, -1], [True, True], DataType.Float)
        b = f.define_tensor([-1, -1], [True, True], DataType.Float)
        f.add_output(f.ops.sub(a, b))
    return f


os.environ["FUSER_SPECIALIZE_SIZES"] = "never"
fs = sub_fusion()
for shape in ((4, 8), (8, 8)):
    (out,) = fs.execute([FakeCudaTensor(np.ones(shape)), FakeCudaTensor(np.ones(shape))])
    del out
stats = fs.cache_stats()
check(stats["compiles"] == 1 and stats["entries"] == 1, f"FUSER_SPECIALIZE_SIZES=never: one entry: {stats}")
os.environ["FUSER_SPECIALIZE_SIZES"] = "sometimes"
with FusionDefinition() as fm:
    a = fm.define_tensor([-1, -1], [True, True], DataType.Float)
    fm.add_output(fm.ops.neg(a))
raises(lambda: fm.execute([FakeCudaTensor(np.ones((4, 8)))]), FuserError, ["FUSER_SPECIALIZE_SIZES=sometimes", "small, never or always"],
       "an unknown FUSER_SPECIALIZE_SIZES")
del os.environ["FUSER_SPECIALIZE_SIZES"]

raises(lambda: fd.execute([x, FakeCudaTensor(np.ones((4, 8)), device_id=1)]), FuserError, ["input 1", "device"],
       "tensors on two devices")
raises(lambda: fd.execute([x, np.ones((4, 8), dtype=np.float32)]), FuserError, ["input 1", "device"],
       "a CPU tensor with CUDA ones")
raises(lambda: fd.execute([x, y], device="cpu"), FuserError, ["device"], "device='cpu' with CUDA tensors")

common.finish()
