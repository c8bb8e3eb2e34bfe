#!/bin/bash
# Fails when a project include does not name its layer from the repository root ("gpu/registry.h",
# never "registry.h" or "../registry.h"), names a file that is not there, or points up the layers:
# app -> render -> gpu, so gpu/ includes neither render/ nor app/, and render/ never app/.
# (gpu/check_layer.cmake, run by every build, keeps GL, window and UI headers out of gpu/.)
#   scripts/check-includes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
generated='^(kc_build_info\.h)$' # written into the build folder by cmake/
bad=0
complain() { echo "$1: $2" >&2; bad=$((bad + 1)); }
while IFS=: read -r file line name; do
  [[ $name =~ $generated ]] && continue
  if [[ ! -f $name || $name != @(app|gpu|render|tests|bench)/* ]]; then
    complain "$file:$line" "#include \"$name\" must name its layer from the repository root (e.g. \"gpu/registry.h\")"
  elif [[ $file == gpu/* && $name == @(render|app)/* ]] || [[ $file == render/* && $name == app/* ]]; then
    complain "$file:$line" "#include \"$name\" points up the layers (app -> render -> gpu)"
  fi
done < <(git ls-files 'app/*' 'gpu/*' 'render/*' 'tests/*' 'bench/*' | grep -E '\.(h|cpp|cu|cuh)$' |
  xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
  sed -E 's/^([^:]*):([0-9]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2:\3/')
if ((bad)); then echo "includes: $bad to mend" >&2; exit 1; fi
echo "includes: every project include names its layer, and none points up"
