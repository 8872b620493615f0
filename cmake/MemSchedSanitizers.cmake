# MEMSCHED_SANITIZE: build memsched's own targets (libraries, memsched-opt,
# the plugin, the runtime, unit tests, benchmarks) with -fsanitize=<list>, e.g.
#   cmake -DMEMSCHED_SANITIZE=address,undefined ...
# Empty (the default): no sanitizer. scripts/test-sanitizers.sh builds and
# tests such a build in build-asan/.
#
# The packaged libLLVM.so / libMLIR.so are not instrumented: memsched's code
# is checked, LLVM's only through the ASan malloc/free it calls. Two things
# follow:
#   - the stock mlir-opt and mlir-runner, which dlopen memsched's instrumented
#     plugin and runtime, need the ASan runtime loaded first: the build writes
#     wrappers that preload it, <build>/sanitizer-bin/mlir-opt and
#     <build>/sanitizer-bin/mlir-runner (scripts/test-sanitizers.sh points lit
#     and the fuzzer at them);
#   - whatever links memsched's static libraries links the sanitizer runtime
#     too: the exported targets carry the link flags (MemSchedInstall.cmake).
set(MEMSCHED_SANITIZE "" CACHE STRING
  "Build memsched with -fsanitize=<list> (e.g. address,undefined); empty: no sanitizer")

set(MEMSCHED_SANITIZE_FLAGS)
set(MEMSCHED_SANITIZER_TOOLS_DIR)
if(NOT MEMSCHED_SANITIZE)
  return()
endif()

string(REPLACE ";" "," memsched_sanitize_list "${MEMSCHED_SANITIZE}")
set(MEMSCHED_SANITIZE_FLAGS -fsanitize=${memsched_sanitize_list} -fno-omit-frame-pointer)
if(memsched_sanitize_list MATCHES "(^|,)undefined(,|$)")
  # Undefined behaviour fails the test that hits it instead of only printing.
  list(APPEND MEMSCHED_SANITIZE_FLAGS -fno-sanitize-recover=undefined)
endif()

string(REPLACE ";" " " memsched_sanitize_flags_str "${MEMSCHED_SANITIZE_FLAGS}")

include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "${memsched_sanitize_flags_str}")
set(CMAKE_REQUIRED_LINK_OPTIONS ${MEMSCHED_SANITIZE_FLAGS})
check_cxx_source_compiles("int main() { return 0; }" MEMSCHED_SANITIZE_WORKS)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT MEMSCHED_SANITIZE_WORKS)
  unset(MEMSCHED_SANITIZE_WORKS CACHE)
  message(FATAL_ERROR "MEMSCHED_SANITIZE=${MEMSCHED_SANITIZE}: ${CMAKE_CXX_COMPILER} "
    "cannot compile and link with ${memsched_sanitize_flags_str} (is the sanitizer "
    "runtime installed? On Debian 12 with g++: libasan8, libubsan1)")
endif()
unset(MEMSCHED_SANITIZE_WORKS CACHE)

message(STATUS "memsched: sanitizers ${memsched_sanitize_list}: ${memsched_sanitize_flags_str}")
# Every target defined after this point, C and C++, compiles and links with
# them; LLVM and MLIR themselves stay as packaged.
add_compile_options(${MEMSCHED_SANITIZE_FLAGS})
add_link_options(${MEMSCHED_SANITIZE_FLAGS})

# The runtime to preload into the uninstrumented stock tools. GCC links the
# shared libasan.so into every instrumented executable and shared library, so
# the stock tools and memsched's own binaries share one runtime. ASan refuses
# to start from a dlopen'ed library ("ASan runtime does not come first in
# initial library list"); UBSan alone does not, and needs no preload.
set(memsched_preload "")
if(memsched_sanitize_list MATCHES "(^|,)address(,|$)")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE memsched_asan_rt OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${memsched_asan_rt}" OR NOT EXISTS "${memsched_asan_rt}")
    message(FATAL_ERROR "MEMSCHED_SANITIZE=${MEMSCHED_SANITIZE}: no shared ASan "
      "runtime found (${CMAKE_CXX_COMPILER} -print-file-name=libasan.so). The "
      "stock mlir-opt and mlir-runner must preload it to load memsched's "
      "instrumented plugin and runtime; this needs GCC's libasan.so.")
  endif()
  get_filename_component(memsched_preload "${memsched_asan_rt}" REALPATH)
  message(STATUS "memsched: the stock tools preload ${memsched_preload}")
endif()

set(MEMSCHED_SANITIZER_TOOLS_DIR ${CMAKE_BINARY_DIR}/sanitizer-bin)
foreach(tool mlir-opt mlir-runner)
  set(memsched_wrapper_tool ${tool})
  set(memsched_wrapper_real ${LLVM_TOOLS_BINARY_DIR}/${tool})
  set(memsched_wrapper_preload ${memsched_preload})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/sanitizer-wrapper.sh.in
    ${MEMSCHED_SANITIZER_TOOLS_DIR}/${tool} @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
      GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
