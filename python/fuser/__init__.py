"""fuser: nvFuser's Python frontend (FusionDefinition, DataType) on the fuser
compiler. The binding is the C extension fuser._C (docs/python.md)."""
from fuser._C import (DataType, FusionDefinition, FuserError, Scalar, Tensor, Vector, import_script)

__all__ = ["DataType", "FusionDefinition", "FuserError", "Tensor", "Scalar", "Vector", "use_as_nvfuser"]


def use_as_nvfuser():
    """Makes `import nvfuser` / `from nvfuser import FusionDefinition, DataType`
    resolve to fuser (an nvFuser script then runs unchanged)."""
    import sys
    from fuser import nvfuser
    sys.modules["nvfuser"] = nvfuser
