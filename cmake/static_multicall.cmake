# static_multicall.cmake: with FUSER_STATIC_MLIR, the target fuser-tools, one
# executable holding the tools of FUSER_MULTICALL_TOOLS (busybox-style; the
# dispatcher is cmake/static-mlir/multicall.c.in). Each tool's own sources are
# compiled again with `main` renamed to <tool>_main; everything else (the
# compiler library, MLIR, LLVM) is linked once. Each static tool alone is
# ~52 MB stripped, ~12.5 MB after xz -9, and fuser-run and fuser-translate
# differ only in their few C files.
set(FUSER_MULTICALL_TOOLS fuser-run fuser-translate fuser-ptx fuser-opt CACHE STRING
  "The tools that fuser-tools holds")
set(_decls "")
set(_table "")
set(_objects)
foreach(t ${FUSER_MULTICALL_TOOLS})
  get_target_property(_srcs ${t} SOURCES)
  get_target_property(_dir ${t} SOURCE_DIR)
  set(_abs)
  foreach(s ${_srcs})
    if(IS_ABSOLUTE ${s})
      list(APPEND _abs ${s})
    else()
      list(APPEND _abs ${_dir}/${s})
    endif()
  endforeach()
  string(REPLACE "-" "_" _id ${t})
  add_library(${_id}_multicall OBJECT ${_abs})
  target_compile_definitions(${_id}_multicall PRIVATE main=${_id}_main)
  target_link_libraries(${_id}_multicall PRIVATE fuser_tool_support fuser_compiler)
  list(APPEND _objects $<TARGET_OBJECTS:${_id}_multicall>)
  string(APPEND _decls "int ${_id}_main(int argc, char **argv);\n")
  string(APPEND _table "    {\"${t}\", ${_id}_main},\n")
endforeach()
set(FUSER_MULTICALL_DECLS "${_decls}")
set(FUSER_MULTICALL_TABLE "${_table}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/static-mlir/multicall.c.in ${CMAKE_BINARY_DIR}/multicall.c @ONLY)
add_executable(fuser-tools ${CMAKE_BINARY_DIR}/multicall.c ${_objects})
target_link_libraries(fuser-tools PRIVATE fuser_tool_support fuser_compiler)
set_target_properties(fuser-tools PROPERTIES LINKER_LANGUAGE CXX RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
