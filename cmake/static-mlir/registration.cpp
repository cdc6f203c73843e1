// registration.cpp: the static build's (FUSER_STATIC_MLIR, docs/gpu-machine.md)
// replacement for libMLIRCAPIRegisterEverything.a. The three C API entry
// points that dialects/context.c calls register only the dialects,
// interfaces, translations and passes that fuser's pipelines use
// (lowering/pipelines.c, lowering/cpu_jit.c, passes/): the upstream
// versions reference every MLIR library, so a static link would keep all of
// MLIR (over 100 MB per tool). A pipeline that names an upstream pass not
// registered here fails in the static tools only ("no such pass"):
// scripts/build-static-tools.sh compares them with the dynamic build.
#include "mlir-c/RegisterEverything.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/IRDL/IR/IRDL.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/InlinerInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlirRegisterAllDialects(MlirDialectRegistry c_registry) {
  DialectRegistry &registry = *unwrap(c_registry);
  // What the fuser IR, the kernel generator (lowering/kernel_gen*.c) and the
  // upstream lowering passes produce; the passes' own dependent dialects
  // are registered by the passes themselves.
  registry.insert<affine::AffineDialect, arith::ArithDialect, cf::ControlFlowDialect, DLTIDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect, irdl::IRDLDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  // convert-to-llvm and convert-gpu-to-nvvm take their patterns from these
  // interfaces of the loaded dialects.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  // Interfaces the upstream registration attaches to these dialects.
  builtin::registerCastOpInterfaceExternalModels(registry);
  func::registerInlinerExtension(registry);
  LLVM::registerInlinerInterface(registry);
  NVVM::registerInlinerInterface(registry);
  // #nvvm.target: gpu-module-to-binary serializes through it (LLVM IR of the
  // gpu.module, libdevice, the NVPTX backend).
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlirRegisterAllLLVMTranslations(MlirContext context) {
  MLIRContext &ctx = *unwrap(context);
  registerBuiltinDialectTranslation(ctx);
  registerLLVMDialectTranslation(ctx);
}

void mlirRegisterAllPasses(void) {
  // canonicalize, cse and the other core transforms.
  registerTransformsPasses();
  // The GPU pipeline (lowering/pipelines.c: fuser_gpu_to_ptx_pipeline).
  memref::registerExpandStridedMetadataPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerConvertGpuOpsToNVVMOps();
  registerReconcileUnrealizedCastsPass();
  registerGpuNVVMAttachTarget();
  registerGpuModuleToBinaryPass();
  registerGpuKernelOutliningPass();
  // The CPU pipeline (fuser_cpu_to_llvm_pipeline).
  arith::registerArithExpandOpsPass();
  registerConvertMathToLLVMPass();
  registerConvertMathToLibmPass();
  registerConvertToLLVMPass();
  // The single to-LLVM conversions, for pipelines written by hand (fuser-opt).
  registerArithToLLVMConversionPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerConvertIndexToLLVMPass();
  registerConvertNVVMToLLVMPass();
  registerConvertVectorToLLVMPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerUBToLLVMConversionPass();
}
