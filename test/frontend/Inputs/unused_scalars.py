import torch
from nvfuser import FusionDefinition, DataType

def unused_scalars(fd : FusionDefinition) -> None :
    S0 = fd.define_scalar(18, dtype=DataType.Int)
    S1 = fd.define_scalar(2.5, dtype=DataType.Double)

with FusionDefinition() as fd:
    unused_scalars(fd)
