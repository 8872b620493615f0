# ctest driver: installs the build into a scratch prefix, configures and builds
# test/Package/consumer against the installed package, and runs it.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DMLIR_DIR=... -P check-package.cmake
set(prefix "${BUILD_DIR}/package-test/install")
set(consumer_build "${BUILD_DIR}/package-test/consumer")
file(REMOVE_RECURSE "${BUILD_DIR}/package-test")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}"
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
# The headers live under include/memsched/, nothing at the top of include/.
if(NOT EXISTS "${prefix}/include/memsched/Transforms/MemSched/MemSched.h" OR
   EXISTS "${prefix}/include/Transforms")
  message(FATAL_ERROR "headers not installed under include/memsched/")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -G Ninja -S "${SOURCE_DIR}/test/Package/consumer"
  -B "${consumer_build}" -DCMAKE_BUILD_TYPE=Release
  "-DMemSched_DIR=${prefix}/lib/cmake/MemSched" "-DMLIR_DIR=${MLIR_DIR}"
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${consumer_build}" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND "${consumer_build}/consumer" RESULT_VARIABLE rc
  OUTPUT_VARIABLE out)
message("${out}")
if(rc)
  message(FATAL_ERROR "the consumer failed")
endif()
if(NOT out MATCHES "function peak 512 -> 256, certificate #memsched.certificate<peak = 256, lower_bound = 256")
  message(FATAL_ERROR "unexpected consumer output")
endif()
if(NOT out MATCHES "graph peak 200 -> 100, lower bound 100")
  message(FATAL_ERROR "unexpected consumer output for the plain graph")
endif()
