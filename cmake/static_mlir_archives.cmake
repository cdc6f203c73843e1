# static_mlir_archives.cmake: what a link against the static MLIR/LLVM
# archives needs, for the static tools (static_mlir.cmake) and libfuser.so
# (shared_library.cmake): _fuser_static_archives (every MLIR and LLVM
# archive but the upstream registration and other tools' ones; the linker
# extracts only what is referenced), _fuser_static_system (zlib, zstd) and
# the target fuser_static_registration (static-mlir/registration.cpp, which
# registers only what fuser uses). Included once.
include_guard(GLOBAL)

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
set(_fuser_static_missing) # the libraries of the two without an archive
foreach(lib z zstd)
  find_file(FUSER_STATIC_LIB_${lib} lib${lib}.a
    PATHS /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib ${FUSER_STATIC_DEPS_DIR}/usr/lib/x86_64-linux-gnu
    NO_DEFAULT_PATH)
  if(FUSER_STATIC_LIB_${lib})
    list(APPEND _fuser_static_system ${FUSER_STATIC_LIB_${lib}})
  else()
    list(APPEND _fuser_static_missing ${lib})
  endif()
endforeach()

add_library(fuser_static_registration STATIC ${CMAKE_CURRENT_LIST_DIR}/static-mlir/registration.cpp)
target_compile_features(fuser_static_registration PRIVATE cxx_std_17)
target_compile_options(fuser_static_registration PRIVATE -Wno-unused-parameter)
target_include_directories(fuser_static_registration SYSTEM PRIVATE ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})

