# Install rules and the exported CMake package (find_package(MemSched)).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The headers go to <prefix>/include/memsched/{Analysis,Dialect,Transforms}:
# nothing of ours at the top of a shared include directory. Consumers keep
# writing #include "Transforms/MemSched/MemSched.h" (the targets carry the
# directory).
set(MEMSCHED_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/memsched)

set(MEMSCHED_EXPORTED_LIBS MemSchedGraph MemSchedAnalysis MLIRMemSched MemSchedTransforms)
foreach(lib ${MEMSCHED_EXPORTED_LIBS})
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${MEMSCHED_INSTALL_INCLUDEDIR}>)
  # Libraries built with MEMSCHED_SANITIZE need the sanitizer runtime in
  # whatever links them.
  if(MEMSCHED_SANITIZE_FLAGS)
    target_link_options(${lib} INTERFACE ${MEMSCHED_SANITIZE_FLAGS})
  endif()
endforeach()

# One umbrella target for consumers.
add_library(MemSched INTERFACE)
target_link_libraries(MemSched INTERFACE MemSchedTransforms MemSchedAnalysis MLIRMemSched MemSchedGraph)

install(TARGETS ${MEMSCHED_EXPORTED_LIBS} MemSched
  EXPORT MemSchedTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${MEMSCHED_INSTALL_INCLUDEDIR})
install(TARGETS memsched-opt memsched-arena RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS MemSchedPlugin memsched_runtime
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ ${PROJECT_BINARY_DIR}/include/
  DESTINATION ${MEMSCHED_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)
install(EXPORT MemSchedTargets NAMESPACE MemSched::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/MemSched)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/MemSchedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MemSchedConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/MemSched
  PATH_VARS MEMSCHED_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/MemSchedConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/MemSchedConfig.cmake
  ${PROJECT_BINARY_DIR}/MemSchedConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/MemSched)
