# install.cmake: what `cmake --install` puts under the prefix:
#   include/fuser/fuser.h, include/fuser/fuser_runtime.h, include/fuser/definition.h (self-contained:
#       fuser.h includes "fuser_runtime.h" next to it; <dlpack/dlpack.h>
#       comes from the system, libdlpack-dev)
#   bin/fuser-opt, bin/fuser-translate, bin/fuser-run
#   with FUSER_SHARED_LIBRARY: lib/libfuser.so (+ its soname links),
#       lib/pkgconfig/fuser.pc, lib/cmake/fuser/fuserConfig.cmake (the
#       imported target fuser::fuser) and fuserConfigVersion.cmake.
# The tools of an ordinary tree use the system's libMLIR.so/libLLVM.so:
# their install keeps the link path as RPATH (those of a FUSER_STATIC_MLIR
# tree need nothing).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(FILES ${PROJECT_SOURCE_DIR}/include/fuser/fuser.h ${PROJECT_SOURCE_DIR}/driver/fuser_runtime.h
  ${PROJECT_SOURCE_DIR}/include/fuser/definition.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fuser)
set_target_properties(fuser-opt fuser-translate fuser-run PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS fuser-opt fuser-translate fuser-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(FUSER_SHARED_LIBRARY)
  install(TARGETS fuser_shared EXPORT fuserTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT fuserTargets NAMESPACE fuser:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fuser)
  configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/package/fuserConfig.cmake.in
    ${CMAKE_BINARY_DIR}/package/fuserConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fuser)
  write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/fuserConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_BINARY_DIR}/package/fuserConfig.cmake ${CMAKE_BINARY_DIR}/package/fuserConfigVersion.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fuser)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/package/fuser.pc.in ${CMAKE_BINARY_DIR}/package/fuser.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/package/fuser.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
