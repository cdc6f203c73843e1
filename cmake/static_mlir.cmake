# static_mlir.cmake: FUSER_STATIC_MLIR=ON (docs/gpu-machine.md). Defines
# fuser_mlir to link the static MLIR/LLVM archives instead of libMLIR.so and
# libLLVM.so, with libstdc++/libgcc static too, so that the tools need only
# glibc at run time (the GPU machine has no LLVM). Only the tools are meant
# to be built in such a tree (scripts/build-static-tools.sh).
#
# Which archive members end up in a tool is decided by the linker from what
# is referenced: registration.cpp replaces libMLIRCAPIRegisterEverything.a
# (which references every dialect, pass and translation) by the few fuser
# uses, and --gc-sections drops the unreferenced functions of the members
# it pulls (the archives are built with -ffunction-sections).

add_compile_options(-ffunction-sections -fdata-sections)

# Every MLIR and LLVM archive, less those that define the upstream
# registration (replaced here) or belong to other tools and tests; what the
# tools do not reference is not extracted.
file(GLOB _fuser_static_archives
  ${FUSER_LLVM_PREFIX}/lib/libMLIR*.a ${FUSER_LLVM_PREFIX}/lib/libLLVM*.a)
list(FILTER _fuser_static_archives EXCLUDE REGEX
  "/libMLIR(CAPIRegisterEverything|RegisterAll[A-Za-z]*|ExecutionEngineShared|JitRunner|MlirOptMain|TranslateLib|TblgenLib|PDLL[A-Za-z]*|Lsp[A-Za-z]*|Query[A-Za-z]*|Reduce[A-Za-z]*|PluginsLib|Test[A-Za-z]*|[A-Za-z]*Test[A-Za-z]*)\\.a$")

# LLVM's Support (llvm::compression, reached from LLVM's object-file code)
# references zlib and zstd. They are linked statically: libz.a
# comes with zlib1g-dev; libzstd.a with libzstd-dev, which
# scripts/build-static-tools.sh unpacks into FUSER_STATIC_DEPS_DIR when the
# system has none (apt-get download: nothing is installed).
set(FUSER_STATIC_DEPS_DIR "" CACHE PATH "Where libzstd-dev was unpacked (its usr/lib/x86_64-linux-gnu/libzstd.a)")
set(_fuser_static_system)
foreach(lib z zstd)
  find_file(FUSER_STATIC_LIB_${lib} lib${lib}.a
    PATHS /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib ${FUSER_STATIC_DEPS_DIR}/usr/lib/x86_64-linux-gnu
    NO_DEFAULT_PATH)
  if(FUSER_STATIC_LIB_${lib})
    list(APPEND _fuser_static_system ${FUSER_STATIC_LIB_${lib}})
  else()
    message(WARNING "lib${lib}.a not found: the static link will miss its symbols "
      "(scripts/build-static-tools.sh fetches libzstd-dev into FUSER_STATIC_DEPS_DIR)")
  endif()
endforeach()

add_library(fuser_static_registration STATIC ${CMAKE_CURRENT_LIST_DIR}/static-mlir/registration.cpp)
target_compile_features(fuser_static_registration PRIVATE cxx_std_17)
target_compile_options(fuser_static_registration PRIVATE -Wno-unused-parameter)
target_include_directories(fuser_static_registration SYSTEM PRIVATE ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})

add_library(fuser_mlir INTERFACE)
target_include_directories(fuser_mlir SYSTEM INTERFACE ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
target_link_libraries(fuser_mlir INTERFACE
  fuser_static_registration
  -Wl,--start-group ${_fuser_static_archives} ${_fuser_static_system} -Wl,--end-group
  -Wl,--no-as-needed m dl pthread -Wl,--as-needed)
# lld: a much faster link of ~700 archives than ld.bfd, and it reports an
# undefined symbol only when a kept section references it.
target_link_options(fuser_mlir INTERFACE
  -static-libstdc++ -static-libgcc -fuse-ld=lld -Wl,--gc-sections)
