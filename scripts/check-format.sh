#!/bin/bash
# Fails when a C++/CUDA source differs from what clang-format makes of it (the repo's .clang-format).
#   scripts/check-format.sh        (clang-format -i on the listed files fixes it)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format.sh needs clang-format (apt-get install clang-format)" >&2; exit 1; }
# Pinned to Debian 12's clang-format 14: another major version lays some lines out differently.
pinned=14
version=$(clang-format --version | sed -nE 's/.*version ([0-9]+)\..*/\1/p')
if [[ $version != "$pinned" ]]; then
  echo "check-format.sh: clang-format $pinned (Debian 12's) formats this tree; this is '${version:-unknown}'" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | grep -v -e '^third_party/' -e '^assets/')
clang-format --dry-run --Werror "${files[@]}"
echo "format: ${#files[@]} files as clang-format writes them"
