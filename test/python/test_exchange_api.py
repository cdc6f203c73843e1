"""fd.execute through DLPack's C exchange API (python/fuser/exchange_api.c):
a producer type made here with ctypes publishes the table as
__dlpack_c_exchange_api__ (the capsule torch >= 2.10 sets on torch.Tensor)
and has a __dlpack__ that fails, so every input, the stream query and
every output must go through the table. Checked on the CPU (a NumPy-backed
tensor) and, with the fake libcuda, on "CUDA": inputs read from the
borrowed DLTensor, the launch stream from current_work_stream, outputs made
by the producer's managed_tensor_to_py_object over fuser's memory (no
copy) and released through their deleter; the table of an unknown major
version is ignored; errors of the table are Python exceptions."""
import ctypes
import gc
import os
import sys

import common

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed (python3-numpy)")
    sys.exit(common.SKIP)

import subprocess  # noqa: E402

from fuser import DataType, FusionDefinition, _C  # noqa: E402

check, raises = common.check, common.raises


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


FROM_PY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(DLTensor))
TO_PY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
STREAM = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))
DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class ExchangeAPI(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("prev_api", ctypes.c_void_p), ("managed_tensor_allocator", ctypes.c_void_p),
                ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p), ("managed_tensor_to_py_object_no_sync", TO_PY),
                ("dltensor_from_py_object_no_sync", FROM_PY), ("current_work_stream", STREAM)]


PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
Py_IncRef = ctypes.pythonapi.Py_IncRef
Py_IncRef.argtypes = [ctypes.py_object]

calls = {"from_py": 0, "to_py": 0, "stream": [], "deleted": 0}
STREAM_HANDLE = 5  # a fake CUstream (1..8 are the fake libcuda's counted streams)


class Tensor:
    """A float32 tensor over a NumPy array (device_type 1 CPU, 2 'CUDA'),
    or over memory handed over by a DLManagedTensorVersioned (outputs)."""

    def __init__(self, array=None, device_type=1, managed=None):
        self.managed = managed
        if managed is not None:
            m = DLManagedTensorVersioned.from_address(managed)
            t = m.dl_tensor
            shape = tuple(t.shape[d] for d in range(t.ndim))
            self.data_ptr = t.data + t.byte_offset
            n = int(np.prod(shape)) if shape else 1
            buf = (ctypes.c_float * n).from_address(self.data_ptr)
            self.array = np.frombuffer(buf, dtype=np.float32).reshape(shape)
            self.device_type = t.device.device_type
        else:
            self.array = np.ascontiguousarray(array, dtype=np.float32)
            self.data_ptr = self.array.ctypes.data
            self.device_type = device_type
        self.shape_c = (ctypes.c_int64 * max(self.array.ndim, 1))(*self.array.shape)

    def __dlpack__(self, stream=None):
        raise RuntimeError("__dlpack__ called: the exchange table was not used")

    def __dlpack_device__(self):
        return (self.device_type, 0)

    def __del__(self):
        if self.managed is not None:
            m = DLManagedTensorVersioned.from_address(self.managed)
            DELETER(m.deleter)(self.managed)
            calls["deleted"] += 1


@FROM_PY
def from_py(obj_addr, out):
    calls["from_py"] += 1
    x = ctypes.cast(obj_addr, ctypes.py_object).value
    if x.array.size == 13:  # the producer refuses this one
        return -1
    t = out.contents
    t.data = x.data_ptr
    t.device = DLDevice(x.device_type, 0)
    t.ndim = x.array.ndim
    t.dtype = DLDataType(2, 32, 1)  # kDLFloat, 32 bits
    t.shape = ctypes.cast(x.shape_c, ctypes.POINTER(ctypes.c_int64))
    t.strides = None
    t.byte_offset = 0
    return 0


@TO_PY
def to_py(managed, out):
    calls["to_py"] += 1
    obj = Tensor(managed=managed)
    Py_IncRef(obj)  # the new reference the caller owns
    out[0] = id(obj)
    return 0


@STREAM
def current_stream(device_type, device_id, out):
    calls["stream"].append((device_type, device_id))
    out[0] = STREAM_HANDLE
    return 0


api = ExchangeAPI(DLPackVersion(1, 3), None, None, None, to_py, from_py, current_stream)
Tensor.__dlpack_c_exchange_api__ = PyCapsule_New(ctypes.addressof(api), b"dlpack_exchange_api", None)


def add_fusion():
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1, -1], [True, True], DataType.Float)
        b = fd.define_tensor([-1, -1], [True, True], DataType.Float)
        fd.add_output(fd.ops.mul(fd.ops.add(a, b), b))
    return fd


fd = add_fusion()
xa, ya = np.arange(12, dtype=np.float32).reshape(3, 4), np.full((3, 4), 2, dtype=np.float32)
(out,) = fd.execute([Tensor(xa), Tensor(ya)])
check(isinstance(out, Tensor), f"the output is the producer's tensor ({type(out).__name__})")
check(np.array_equal(out.array, (xa + ya) * ya), "CPU: (x + y) * y")
check(calls["from_py"] == 2 and calls["to_py"] == 1, f"inputs and output through the table: {calls}")
check(calls["stream"] == [], "no stream query on the CPU")
del out
gc.collect()
check(calls["deleted"] == 1, "dropping the output calls its deleter (fuser frees the memory)")

# a number among the inputs, and a NumPy array beside an exchange tensor (CPU: any kind mixes)
with FusionDefinition() as fds:
    a = fds.define_tensor([-1], [True], DataType.Float)
    s = fds.define_scalar(dtype=DataType.Double)
    b = fds.define_tensor([-1], [True], DataType.Float)
    fds.add_output(fds.ops.add(fds.ops.mul(a, s), b))
(out,) = fds.execute([Tensor(np.ones(5)), 3.0, np.arange(5, dtype=np.float32)])
check(np.array_equal(out.array, 3.0 + np.arange(5, dtype=np.float32)), "a scalar and a NumPy input beside the table's")
del out

# a tensor the table refuses goes through __dlpack__ (here that raises: it would report what is wrong)
raises(lambda: fd.execute([Tensor(np.ones(13).reshape(1, 13)), Tensor(ya)]), RuntimeError, ["__dlpack__ called"],
       "the first input refused by the table is taken through __dlpack__")
raises(lambda: fd.execute([Tensor(ya), Tensor(np.ones(13).reshape(1, 13))]), RuntimeError, ["__dlpack__ called"],
       "a later input refused by the table is taken through __dlpack__")
raises(lambda: fd.execute([Tensor(xa), Tensor(np.ones(4))]), Exception, ["input 1", "rank"],
       "a wrong rank through the table is refused")


class OldTensor(Tensor):
    """A table of an unknown major version: ignored, __dlpack__ is used."""


bad = ExchangeAPI(DLPackVersion(2, 0), None, None, None, to_py, from_py, current_stream)
OldTensor.__dlpack_c_exchange_api__ = PyCapsule_New(ctypes.addressof(bad), b"dlpack_exchange_api", None)
before = calls["from_py"]
raises(lambda: fd.execute([OldTensor(xa), OldTensor(ya)]), RuntimeError, ["__dlpack__ called"],
       "a major version 2 table is not used")
check(calls["from_py"] == before, "and none of its functions is called")

check(_C._exchange_api(Tensor(xa)) and not _C._exchange_api(OldTensor(xa)) and not _C._exchange_api(xa),
      "_C._exchange_api tells which inputs take the fast path")
# FUSER_PY_EXCHANGE_API=0 turns it off (read once per process)
# (a table whose entries are never called: version 1.0, then non-NULL entry points)
probe = ("import ctypes, fuser._C as C\n"
         "new = ctypes.pythonapi.PyCapsule_New\n"
         "new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]\n"
         "table = (ctypes.c_uint64 * 7)(1, 0, 0, 0, 1, 1, 1)\n"
         "class T: pass\n"
         "T.__dlpack_c_exchange_api__ = new(ctypes.addressof(table), b'dlpack_exchange_api', None)\n"
         "print(C._exchange_api(T()))\n")
on = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=dict(os.environ))
off = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                     env=dict(os.environ, FUSER_PY_EXCHANGE_API="0"))
check(on.stdout.strip() == "True" and off.stdout.strip() == "False",
      f"FUSER_PY_EXCHANGE_API=0 turns the fast path off ({on.stdout.strip()}/{off.stdout.strip()} {on.stderr}{off.stderr})")

fake = os.environ.get("FUSER_CUDA_LIBRARY")
if fake and os.path.exists(fake):
    class FakeLaunch(ctypes.Structure):  # test/driver/fake_cuda.h
        _fields_ = [("name", ctypes.c_char * 64), ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                    ("shared", ctypes.c_uint), ("stream", ctypes.c_void_p), ("nparams", ctypes.c_int),
                    ("params", ctypes.c_uint64 * 64)]

    class FakeState(ctypes.Structure):
        _fields_ = [("current_ctx", ctypes.c_void_p), ("module_loads", ctypes.c_int), ("module_unloads", ctypes.c_int),
                    ("allocs", ctypes.c_int), ("frees", ctypes.c_int), ("memsets", ctypes.c_int),
                    ("last_memset_bytes", ctypes.c_size_t), ("fail_alloc_above", ctypes.c_size_t),
                    ("nlaunches", ctypes.c_int), ("launches", FakeLaunch * 64), ("stream_launches", ctypes.c_int * 17)]

    state = FakeState.in_dll(ctypes.CDLL(fake), "fake_cuda_state")
    calls["stream"].clear()
    launches0 = state.stream_launches[STREAM_HANDLE]
    x, y = Tensor(xa, device_type=2), Tensor(ya, device_type=2)
    (out,) = fd.execute([x, y])
    check(calls["stream"] == [(2, 0)], f"CUDA: the stream is the producer's current one ({calls['stream']})")
    check(state.stream_launches[STREAM_HANDLE] > launches0, "CUDA: the kernel ran on that stream")
    check(isinstance(out, Tensor) and out.device_type == 2, "CUDA: the output is the producer's CUDA tensor")
    check(out.array.shape == (3, 4), "CUDA: output shape")
    del out
    gc.collect()
    raises(lambda: fd.execute([x, Tensor(ya)]), Exception, ["input 1", "device"], "CUDA and CPU tensors mixed")

    # the table's managed_tensor_allocator: CUDA outputs from the producer's
    # own memory (torch's caching allocator through C), freed through the
    # producer's deleter when the output dies (exchange_alloc.c)
    SET_ERROR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
    ALLOC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(DLTensor),
                             ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned)), ctypes.c_void_p, SET_ERROR)
    blocks, made = {}, {"allocs": [], "freed": 0, "fail": False}

    @DELETER
    def free_block(addr):
        blocks.pop(addr)
        made["freed"] += 1

    @ALLOC
    def allocate(proto, out, error_ctx, set_error):
        p = proto.contents
        made["allocs"].append((p.ndim, p.shape[0], p.dtype.code, p.dtype.bits, p.device.device_type, p.device.device_id))
        if made["fail"]:
            set_error(error_ctx, b"MemoryError", b"the producer is out of memory")
            return -1
        n = p.shape[0]
        buf = ctypes.create_string_buffer(n + 512)
        m = DLManagedTensorVersioned()
        m.version = DLPackVersion(1, 0)
        m.deleter = ctypes.cast(free_block, ctypes.c_void_p).value
        t = m.dl_tensor
        t.data = (ctypes.addressof(buf) + 511) // 512 * 512
        t.device = p.device
        t.ndim = 1
        t.dtype = p.dtype
        shape = (ctypes.c_int64 * 1)(n)
        t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
        blocks[ctypes.addressof(m)] = (m, buf, shape)
        out[0] = ctypes.pointer(m)
        return 0

    api.managed_tensor_allocator = ctypes.cast(allocate, ctypes.c_void_p).value
    (out,) = fd.execute([x, y])
    check(made["allocs"] == [(1, 48, 1, 8, 2, 0)],
          f"CUDA: the output's 48 bytes from the producer's allocator, as uint8 on its device ({made['allocs']})")
    check(any(m.dl_tensor.data == out.data_ptr for m, _, _ in blocks.values()),
          "CUDA: the output lies in the producer's block")
    check(_C._exchange_allocations() == 1 and made["freed"] == 0, "CUDA: the block is held while the output lives")
    del out
    gc.collect()
    check(made["freed"] == 1 and not blocks and _C._exchange_allocations() == 0,
          "CUDA: dropping the output gives the block back through the producer's deleter")
    outs = [fd.execute([x, y])[0] for _ in range(40)]  # the live-block table grows past its first size
    check(_C._exchange_allocations() == 40 and len(set(o.data_ptr for o in outs)) == 40, "CUDA: 40 live outputs, 40 blocks")
    del outs[::2]
    gc.collect()
    check(_C._exchange_allocations() == 20 and made["freed"] == 21, "CUDA: half of them dropped, in any order")
    del outs
    gc.collect()
    check(_C._exchange_allocations() == 0 and not blocks, "CUDA: all given back")
    made["allocs"].clear()
    _C._set_allocator("runtime")
    (out,) = fd.execute([x, y])
    check(made["allocs"] == [], "CUDA: _set_allocator('runtime') takes the runtime's memory instead")
    del out
    _C._set_allocator("torch")
    made["fail"] = True
    raises(lambda: fd.execute([x, y]), Exception, ["allocat", "the producer is out of memory"],
           "CUDA: the producer's allocation error is the exception's message")
    made["fail"] = False
else:
    print("note: no fake libcuda (FUSER_CUDA_LIBRARY): the CUDA part is skipped")

common.finish()
