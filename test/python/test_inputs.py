"""The binding's input path (python/fuser/tensor_in.c) on CPU torch
tensors, in every layout it must get right, against torch's own result:
views with a storage offset, transposes, slices with steps, broadcasts
(stride 0), a 0-dim tensor, bool, tensors that require grad, a Tensor
subclass (nn.Parameter); the same tensors through DLPack (NumPy) agree;
and a tensor whose memory is not plain CPU or CUDA is refused with an
error, never read."""
import sys

import common

common.need_torch()
import numpy as np  # noqa: E402
import torch  # noqa: E402

from fuser import DataType, FuserError, FusionDefinition  # noqa: E402

check = common.check


def add_fusion(rank, dtype):
    with FusionDefinition() as fd:
        a = fd.define_tensor(shape=[-1] * rank, contiguity=[None] * rank, dtype=dtype)
        b = fd.define_tensor(shape=[-1] * rank, contiguity=[None] * rank, dtype=dtype)
        fd.add_output(fd.ops.add(a, b))
    return fd


base = torch.arange(4 * 6 * 5, dtype=torch.float32).reshape(4, 6, 5)
other = torch.randn(4, 6, 5)
fd3 = add_fusion(3, DataType.Float)
fd2 = add_fusion(2, DataType.Float)
cases = {
    "contiguous": (fd3, base, other),
    "transposed": (fd3, base.transpose(0, 2), other.transpose(0, 2)),
    "storage offset + step": (fd2, base[1, 1:, ::2], other[2, :5, ::2]),
    "permuted view of a slice": (fd3, base[1:3].permute(2, 0, 1), other[:2].permute(2, 0, 1)),
    "broadcast (stride 0)": (fd3, base[:, :1, :].expand(4, 6, 5), other),
    "requires_grad": (fd3, base.clone().requires_grad_(True), other),
    "nn.Parameter": (fd3, torch.nn.Parameter(base.clone()), other),
}
for name, (fd, x, y) in cases.items():
    (out,) = fd.execute([x, y])
    want = x.detach() + y.detach()
    check(isinstance(out, torch.Tensor) and out.shape == want.shape and torch.equal(out, want), f"{name}: x + y")
    # the same inputs through DLPack (NumPy arrays) give the same
    (nout,) = fd.execute([x.detach().numpy(), y.detach().numpy()])
    check(np.array_equal(np.asarray(nout), want.numpy()), f"{name}: through NumPy's DLPack too")

with FusionDefinition() as fd0:
    s = fd0.define_tensor(shape=[], contiguity=[], dtype=DataType.Float)
    t = fd0.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    fd0.add_output(fd0.ops.mul(s, t))
(out,) = fd0.execute([torch.tensor(3.0), torch.ones(7)])
check(torch.equal(out, torch.full((7,), 3.0)), "a 0-dim tensor")

with FusionDefinition() as fdb:
    m = fdb.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool)
    v = fdb.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    fdb.add_output(fdb.ops.where(m, v, fdb.ops.neg(v)))
mask = torch.tensor([True, False, True, False, False])
vals = torch.arange(5, dtype=torch.float32)
(out,) = fdb.execute([mask, vals])
check(torch.equal(out, torch.where(mask, vals, -vals)), "a bool tensor")
(out,) = fdb.execute([mask[::2], vals[::2].contiguous()])
check(torch.equal(out, torch.where(mask[::2], vals[::2], -vals[::2])), "a strided bool tensor")

# the same tensor object changed in place between calls is read afresh
x = torch.ones(3, 4)
(o1,) = fd2.execute([x, torch.zeros(3, 4)])
x.resize_(4, 3).fill_(2.0)
(o2,) = fd2.execute([x, torch.zeros(4, 3)])
check(o1.shape == (3, 4) and o2.shape == (4, 3) and bool((o2 == 2).all()), "a tensor resized in place is read again")

# wrong dtype and a meta tensor (no memory): errors, nothing read
common.raises(lambda: fd2.execute([torch.ones(2, 2, dtype=torch.float64), torch.ones(2, 2)]), FuserError,
              ["input 0", "64 bits", "f32"], "a double tensor for a Float input")
meta = torch.empty(2, 2, device="meta")
try:
    fd2.execute([meta, torch.ones(2, 2)])
    check(False, "a meta tensor is refused")
except (FuserError, RuntimeError, TypeError, BufferError) as e:
    check(True, f"a meta tensor is refused: {type(e).__name__}: {e}")

# outputs are fuser's memory, not copies: the torch tensor's data pointer is
# the one fuser allocated (fuser._C._last_output_pointers), for each output
from fuser import _C  # noqa: E402

with FusionDefinition() as fd_two:
    a = fd_two.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    fd_two.add_output(fd_two.ops.neg(a))
    fd_two.add_output(fd_two.ops.mul(a, a))
outs = fd_two.execute([other[0]])
ptrs = _C._last_output_pointers()
check(len(ptrs) == 2 and [o.data_ptr() for o in outs] == list(ptrs), f"outputs are fuser's memory, no copy ({ptrs})")
check(torch.equal(outs[0], -other[0]) and torch.equal(outs[1], other[0] * other[0]), "and hold the results")

common.finish()
