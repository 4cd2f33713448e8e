# SPDX-License-Identifier: Apache-2.0
# Run at every build (cmake -P): writes the git revision of the source into
# ${OUTPUT} (servelab_revision.h), touching it only when the revision changed, so a new commit
# recompiles one file. Outside a git checkout (a tarball, a read-only bind mount git refuses)
# the revision is "unknown".
set(revision "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --always --dirty --abbrev=10
                    OUTPUT_VARIABLE described RESULT_VARIABLE status ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(status EQUAL 0 AND described)
        set(revision "${described}")
    endif()
endif()
set(text "#pragma once\n#define SERVELAB_GIT_REVISION \"${revision}\"\n")
if(EXISTS "${OUTPUT}")
    file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
    file(WRITE "${OUTPUT}" "${text}")
endif()
