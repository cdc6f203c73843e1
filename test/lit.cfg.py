# lit configuration for fuser: every test under test/ is a lit test (.mlir,
# .test, or a .py fusion script with RUN lines). Inputs/ folders hold data.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "fuser"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuser_obj_root, "test")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.fuser_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tools = ["fuser-opt", "fuser-translate", "fuser-run", "fuser-artifact", "mlir-opt"]
llvm_config.add_tool_substitutions(tools, [config.fuser_tools_dir, config.llvm_tools_dir])

config.substitutions.append(("%corpus", config.fuser_corpus_dir))
config.substitutions.append(("%src", config.fuser_src_root))
if config.fuser_corpus_dir and os.path.isdir(config.fuser_corpus_dir):
    config.available_features.add("corpus")
# The reproducers of the reliability audit (issue 17): ../shared/repros next
# to the corpus. Tests that run them say `REQUIRES: repros`.
if config.fuser_corpus_dir:
    repros = os.path.join(os.path.dirname(config.fuser_corpus_dir), "repros")
    if os.path.isdir(repros):
        config.available_features.add("repros")
        config.substitutions.append(("%repros", repros))
config.substitutions.append(("%runtime_lib", os.path.join(config.fuser_obj_root, "driver", "libfuser_runtime.a")))
# util-linux's script(1): runs a command on a pseudo-terminal (progress output).
import shutil
if shutil.which("script"):
    config.available_features.add("pty")
# NumPy for the system interpreter (tests that load fuser-run's .npy files).
import subprocess
if subprocess.run(["/usr/bin/python3", "-c", "import numpy"], capture_output=True).returncode == 0:
    config.available_features.add("numpy")
# The nvFuser importer (.py fusions) once frontend/ is in the tree.
if os.path.exists(os.path.join(config.fuser_src_root, "frontend", "nvfuser_import.h")):
    config.available_features.add("importer")
# Large corpus sizes take minutes on the CPU reference: opt in with
# FUSER_TEST_LARGE=1.
if os.environ.get("FUSER_TEST_LARGE") == "1":
    config.available_features.add("large")
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    # gpu-module-to-binary links libdevice only when it finds the toolkit
    # through CUDA_ROOT/CUDA_HOME/CUDA_PATH (lit clears the environment).
    config.environment["CUDA_ROOT"] = os.path.dirname(os.path.dirname(config.ptxas))
    config.substitutions.append(("%ptxas", config.ptxas))

# PyTorch on the system interpreter: the CPU oracle of test/lowering/torch_oracle.py.
import subprocess
try:
    if subprocess.call(["/usr/bin/python3", "-c", "import torch"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("torch")
        config.substitutions.append(("%torch_python", "/usr/bin/python3"))
except OSError:
    pass
if config.fuser_corpus_dir:
    config.substitutions.append(("%nvfuser_torch_dir", os.path.join(os.path.dirname(config.fuser_corpus_dir), "bench")))

# The fake libcuda (test/driver/fake_cuda.c): the GPU modes of the tools run
# against it on CPU (kernels are recorded, not run).
fake_cuda = os.path.join(config.fuser_obj_root, "unit", "libfuser_fake_cuda.so")
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda")
    config.substitutions.append(("%fake_cuda", fake_cuda))
# The fake libcublasLt (test/driver/fake_cublaslt.c): matmul kernels of the
# tools' GPU modes computed on CPU with cuBLASLt's column-major semantics.
fake_cublaslt = os.path.join(config.fuser_obj_root, "unit", "libfuser_fake_cublaslt.so")
if os.path.exists(fake_cublaslt):
    config.available_features.add("fake-cublaslt")
    config.substitutions.append(("%fake_cublaslt", fake_cublaslt))
