# Constants as outputs, one of them rebound: their fuser.scalar ops land after
# the body in add_output order, wherever add_output stood (data for
# roundtrip-inputs.test).
from nvfuser import FusionDefinition, DataType
def f(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    S1 = fd.define_scalar(3.0, dtype=DataType.Double)
    fd.add_output(S1)
    T2 = fd.ops.neg(T0)
    fd.add_output(T2)
    S1 = fd.define_scalar(4.0, dtype=DataType.Double)
    fd.add_output(S1)
