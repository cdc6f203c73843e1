"""fuser.FusionDefinition on CPU torch and NumPy tensors: the nvFuser surface
(define_tensor both forms, define_scalar, define_vector, ops with positional
and keyword arguments, add_output with stride_order and alias_input, the
subclass style) and the results against torch computed here."""
import common

common.need_torch()
import numpy as np
import torch

import fuser
from fuser import DataType, FusionDefinition

check = common.check

# --- the README example: bf16 in, f32 math, bf16 out, torch tensors both ways
with FusionDefinition() as fd:
    t0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16)
    t1 = fd.define_tensor([-1], [True], DataType.BFloat16)
    t1b = fd.ops.broadcast_in_dim(t1, shape=[4, 8], broadcast_dims=[1])
    t2 = fd.ops.add(fd.ops.cast(t0, DataType.Float), fd.ops.cast(t1b, dtype=DataType.Float))
    t3 = fd.ops.cast(fd.ops.mul(t2, 2.0), DataType.BFloat16)
    fd.add_output(t3)
x = torch.randn(4, 8, dtype=torch.bfloat16)
b = torch.randn(8, dtype=torch.bfloat16)
(out,) = fd.execute([x, b])
want = ((x.float() + b.float()) * 2.0).to(torch.bfloat16)
check(isinstance(out, torch.Tensor), "output is a torch tensor")
check(out.dtype == torch.bfloat16, "bf16 intact through DLPack")
check(torch.equal(out, want), "bf16 add/mul equals torch")
check(t0.ndim == 2 and t1.dtype is DataType.BFloat16 and repr(t0) == "T0", "Tensor ndim/dtype/repr")
check(isinstance(fd.hash, int) and "fuser.add" in fd.ir(), "hash and IR")

# --- strided input: a permuted view runs in place (any strides)
xt = torch.randn(8, 4).t()
(o,) = fd.execute([xt.to(torch.bfloat16), b])
check(torch.equal(o, ((xt.to(torch.bfloat16).float() + b.float()) * 2.0).to(torch.bfloat16)), "strided input")

# --- the sizes/strides form, scalar inputs, reductions, var_mean (two results)
with FusionDefinition() as fd2:
    a = fd2.define_tensor(sizes=[3, 5], strides=[5, 1], dtype=DataType.Float)
    s = fd2.define_scalar(None, dtype=DataType.Double)
    v, m = fd2.ops.var_mean(a, [1], correction=0, keepdim=False)
    r = fd2.ops.sum(fd2.ops.mul(a, s), dims=[0])
    fd2.add_output(v)
    fd2.add_output(m)
    fd2.add_output(r)
a_in = torch.randn(3, 5)
outs = fd2.execute([a_in, 1.5])
wv, wm = torch.var_mean(a_in, dim=1, unbiased=False)
check(len(outs) == 3, "three outputs")
check(torch.allclose(outs[0], wv, atol=1e-6) and torch.allclose(outs[1], wm, atol=1e-6), "var_mean")
check(torch.allclose(outs[2], (a_in * 1.5).sum(0), atol=1e-5), "scalar input and sum")

# --- the sizes/strides form reads the layout from the strides
with FusionDefinition() as fd3:
    p = fd3.define_tensor([4, 6], [1, 4], DataType.Float)  # column-major
    fd3.add_output(fd3.ops.neg(p))
check("stride_order = array<i64: 0, 1>" in fd3.ir(), "sizes/strides: column-major stride order")
pin = torch.randn(6, 4).t()
check(torch.equal(fd3.execute([pin])[0], -pin), "sizes/strides: run")

# --- define_vector shapes, reshape, permute, add_output stride_order
with FusionDefinition() as fd4:
    q = fd4.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    n0 = fd4.define_scalar(2, dtype=DataType.Int)
    n1 = fd4.define_scalar(6, dtype=DataType.Int)
    vec = fd4.define_vector([n0, n1], dtype=DataType.Int)
    rq = fd4.ops.reshape(q, new_shape=vec)
    pq = fd4.ops.permute(rq, dims=[1, 0])
    fd4.add_output(pq, stride_order=[0, 1])
qi = torch.arange(12, dtype=torch.float32).reshape(3, 4)
(po,) = fd4.execute([qi])
check(torch.equal(po, qi.reshape(2, 6).permute(1, 0)), "define_vector + reshape + permute")
check(repr(vec) == "V5" or repr(vec).startswith("V"), "Vector repr")

# --- add_output(alias_input=...): the input is updated in place, not returned
with FusionDefinition() as fd5:
    w = fd5.define_tensor([-1], [True], DataType.Float)
    g = fd5.define_tensor([-1], [True], DataType.Float)
    nw = fd5.ops.sub(w, fd5.ops.mul(g, 0.5))
    fd5.add_output(nw, alias_input=w)
    fd5.add_output(fd5.ops.sum(nw, [0]))
wi, gi = torch.ones(5), torch.arange(5, dtype=torch.float32)
res = fd5.execute([wi, gi])
check(len(res) == 1, "aliased output not returned")
check(torch.equal(wi, 1 - 0.5 * torch.arange(5, dtype=torch.float32)), "aliased input updated in place")
check(abs(float(res[0]) - float(wi.sum())) < 1e-6, "non-aliased output")

# --- NumPy in, NumPy out
na = np.arange(6, dtype=np.float32).reshape(2, 3)
with FusionDefinition() as fd6:
    n = fd6.define_tensor([-1, -1], [True, True], DataType.Float)
    fd6.add_output(fd6.ops.exp(n))
(no,) = fd6.execute([na])
check(isinstance(no, np.ndarray) and np.allclose(no, np.exp(na)), "NumPy in and out")

# --- comparisons give bool tensors (torch 1.x exports no bool: relabelled, no copy)
with FusionDefinition() as fd7:
    c = fd7.define_tensor([-1], [True], DataType.Float)
    fd7.add_output(fd7.ops.gt(c, 0.0))
    bm = fd7.define_tensor([-1], [True], DataType.Bool)
    fd7.add_output(fd7.ops.where(bm, c, 1.0))
ci = torch.tensor([-1.0, 2.0, 0.5])
mi = torch.tensor([True, False, True])
o1, o2 = fd7.execute([ci, mi])
check(o1.dtype == torch.bool and torch.equal(o1, ci > 0), "bool output")
check(torch.equal(o2, torch.where(mi, ci, torch.tensor(1.0))), "bool input")

# --- nvFuser's subclass style: definition(self), defined on first execute
class Square(FusionDefinition):
    def definition(self):
        t = self.define_tensor([-1], [True], DataType.Float)
        self.add_output(self.ops.mul(t, t))

sq = Square()
check(torch.equal(sq.execute([torch.tensor([3.0])])[0], torch.tensor([9.0])), "subclass with definition()")

# --- every op the dialect has is reachable as fd.ops.<name>
names = dir(FusionDefinition().ops)
check(all(n in names for n in ["add", "cast", "broadcast_in_dim", "var_mean", "pad", "cat", "slice", "iota", "full"]),
      "dir(fd.ops) lists the ops")

# --- arithmetic on values records ops, as nvFuser's Tensor does
with FusionDefinition() as fd8:
    u = fd8.define_tensor([-1], [True], DataType.Float)
    sc = fd8.define_scalar(None, dtype=DataType.Double)
    fd8.add_output(abs(-(u * 2.0 + sc) / u - 1.0) ** 2)
ui = torch.tensor([1.0, 2.0, 4.0])
check(torch.allclose(fd8.execute([ui, 0.5])[0], (-(ui * 2 + 0.5) / ui - 1).abs() ** 2), "operators on Tensor/Scalar")
check("fuser.pow" in fd8.ir() and "fuser.neg" in fd8.ir(), "operators record fuser ops")

# --- fuser.nvfuser and use_as_nvfuser
import fuser.nvfuser
fuser.use_as_nvfuser()
import nvfuser
check(nvfuser.FusionDefinition is FusionDefinition and nvfuser.DataType is DataType, "import nvfuser -> fuser")

common.finish()
