#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file says its licence in its first lines (SPDX, as the LICENSE file: Apache-2.0):
#   licenseheaders.sh SOURCE_DIR
# C++ and CMake files on line 1, scripts on line 1 or, after a #! line, line 2. Names the files
# that do not, and how to fix them.
set -uo pipefail
src=$1
line='SPDX-License-Identifier: Apache-2.0'
missing=0
checked=0
while IFS= read -r -d '' f; do
    checked=$((checked + 1))
    head -2 "$f" | grep -q "$line" && continue
    echo "no licence line: ${f#"$src"/}"
    missing=$((missing + 1))
done < <(find "$src/app" "$src/cli" "$src/core" "$src/ui" "$src/tests" "$src/packaging" "$src/cmake" \
    "$src/CMakeLists.txt" "$src/.ci" -type f \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.h.in' -o -name 'CMakeLists.txt' \
    -o -name '*.cmake' -o -name '*.sh' -o -path "$src/.ci/run" \) -print0)
if [ $missing -gt 0 ]; then
    echo "$missing of $checked files lack '$line' (// in C++, # in CMake and scripts, first line or after #!)"
    exit 1
fi
echo "$checked files, each with '$line'"
