# Writes the build-information header (cmake/build_info.h.in) at build time:
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DCHARIOT_VERSION=... -DCHARIOT_COMPILER=...
#         -DCHARIOT_SYSTEM=... -P build_info.cmake
# The commit is the short hash of HEAD, with "-dirty" when tracked files differ
# from it, or "unknown" outside a git checkout (or without git). The file is
# rewritten only when its content changes.
set(CHARIOT_GIT_COMMIT unknown)
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short HEAD
                  OUTPUT_VARIABLE hash RESULT_VARIABLE hash_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(hash_rc EQUAL 0 AND hash)
    set(CHARIOT_GIT_COMMIT ${hash})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status_rc ERROR_QUIET)
    if(NOT status_rc EQUAL 0 OR changes)
      string(APPEND CHARIOT_GIT_COMMIT -dirty)
    endif()
  endif()
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_info.h.in ${OUTPUT} @ONLY)
