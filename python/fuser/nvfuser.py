"""fuser under nvFuser's module name: `import fuser.nvfuser as nvfuser`, or
fuser.use_as_nvfuser() to make `import nvfuser` itself resolve here."""
from fuser._C import DataType, FusionDefinition, FuserError, Scalar, Tensor, Vector

__all__ = ["DataType", "FusionDefinition", "FuserError", "Tensor", "Scalar", "Vector"]
