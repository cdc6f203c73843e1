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

# The archives, zlib/zstd and the registration replacement (shared with
# libfuser.so's link, cmake/shared_library.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/static_mlir_archives.cmake)
foreach(lib ${_fuser_static_missing})
  message(WARNING "lib${lib}.a not found: the static link will miss its symbols "
    "(scripts/build-static-tools.sh fetches libzstd-dev into FUSER_STATIC_DEPS_DIR)")
endforeach()

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
