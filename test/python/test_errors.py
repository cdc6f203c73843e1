"""Bad definitions and bad inputs raise Python exceptions (fuser.FuserError,
TypeError) with the script location and fuser's message; never a crash."""
import common

common.need_torch()
import torch

import fuser
from fuser import DataType, FusionDefinition, FuserError

raises = common.raises
check = common.check
HERE = __file__.rsplit("/", 1)[-1]


def op_error():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1, -1], [True, True], DataType.Float)
        fd.ops.sum(t, dims=[5])  # the line in the message
raises(op_error, FuserError, [HERE + ":", "fd.ops.sum", "out of range"], "a bad dim names the script line")


def bad_kw():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True], DataType.Float)
        fd.ops.cast(t, dtipe=DataType.Half)
raises(bad_kw, FuserError, ["unexpected keyword argument 'dtipe'"], "unknown keyword")


def bad_dtype_name():
    with FusionDefinition() as fd:
        fd.define_tensor([-1], [True], DataType.ComplexFloat)
raises(bad_dtype_name, FuserError, ["unsupported dtype DataType.ComplexFloat"], "unsupported dtype")


def not_a_value():
    with FusionDefinition() as fd:
        t = fd.define_tensor([-1], [True], DataType.Float)
        fd.ops.add(t, object())
raises(not_a_value, TypeError, ["fd.ops.add", "object"], "a non-value argument")


def foreign_value():
    with FusionDefinition() as a:
        ta = a.define_tensor([-1], [True], DataType.Float)
        a.add_output(ta)
    with FusionDefinition() as b:
        b.ops.neg(ta)
raises(foreign_value, ValueError, ["another FusionDefinition"], "a value of another definition")

raises(lambda: FusionDefinition().ops.no_such_op, AttributeError, ["no_such_op"], "unknown op")
raises(lambda: FusionDefinition().define_tensor([-1], [True]), FuserError, ["outside the definition"],
       "define outside the with block")
raises(lambda: FusionDefinition().execute([]), FuserError, ["before the definition"], "execute before defining")


def failed_stays_failed():
    fd = FusionDefinition()
    try:
        with fd:
            t = fd.define_tensor([-1], [True], DataType.Float)
            fd.ops.reshape(t, new_shape=[-1, -1])
    except FuserError:
        pass
    fd.execute([torch.ones(2)])
raises(failed_stays_failed, FuserError, ["failed"], "a failed definition cannot run")

with FusionDefinition() as fd:
    t0 = fd.define_tensor([-1, -1], [True, True], DataType.Float)
    s0 = fd.define_scalar(None, dtype=DataType.Double)
    fd.add_output(fd.ops.mul(t0, s0))

raises(lambda: fd.execute([torch.ones(2, 2)]), FuserError, ["1 inputs given", "takes 2"], "input count")
raises(lambda: fd.execute([torch.ones(2), 1.0]), FuserError, ["rank"], "wrong rank")
raises(lambda: fd.execute([torch.ones(2, 2, dtype=torch.float64), 1.0]), FuserError, ["input 0", "dtype", "f32"], "wrong dtype")
raises(lambda: fd.execute(["x", 1.0]), TypeError, ["input 0", "str"], "a non-tensor input")
raises(lambda: fd.execute([torch.ones(2, 2), torch.ones(2, 2)]), FuserError, ["input 1", "scalar"],
       "a tensor for a scalar")
raises(lambda: fd.execute(torch.ones(2, 2)), TypeError, ["list or tuple"], "inputs not a list")
raises(lambda: fd.execute([torch.ones(2, 2), 1.0], device="tpu"), ValueError, ["device"], "bad device")
raises(lambda: fd.execute([torch.ones(2, 2), 1.0], device="cuda:0"), FuserError, ["device"],
       "CPU tensors with device='cuda'")
# still usable after all of that
check(torch.equal(fd.execute([torch.ones(2, 2), 3.0])[0], torch.full((2, 2), 3.0)), "usable after errors")

common.finish()
