# Compares (CHECK=ON) or copies (CHECK=OFF) the generated reference docs with
# the ones checked in under docs/reference.
#   cmake -DGENERATED=<dir> -DCHECKED_IN=<dir> -DCHECK=ON -P CheckDocs.cmake
foreach(name MemSchedDialect.md MemSchedPasses.md)
  if(CHECK)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
      "${GENERATED}/${name}" "${CHECKED_IN}/${name}" RESULT_VARIABLE rc)
    if(rc)
      message(FATAL_ERROR "docs/reference/${name} is stale: run `ninja memsched-docs` and commit it")
    endif()
  else()
    file(COPY "${GENERATED}/${name}" DESTINATION "${CHECKED_IN}")
  endif()
endforeach()
