#!/bin/bash
# Fails when a project include does not name its layer from the repository root ("gpu/registry.h",
# never "registry.h" or "../registry.h"), names a file that is not there, or points up the layers:
#   app -> render -> gpu: gpu/ includes neither render/ nor app/, and render/ never app/;
#   cpukernel/ (the user's kernel compiled for the CPU) includes gpu/ and itself only;
#   sandbox/ (that kernel run in a child that can only compute) includes gpu/, cpukernel/ and
#   itself; render/ and app/ may include it (render -> sandbox -> cpukernel -> gpu);
#   inside app/ (README, "Architecture"), each room includes only itself and the rooms below it:
#     window   -> cli, script, ui, ab, lesson, exercise, record, core  (app/main.cpp, at the top, may include any)
#     cli      -> ui, ab, lesson, exercise, record, core               (ui for the recordings' overlays)
#     script   -> ui, ab, lesson, exercise, record, core
#     ui       -> ab, lesson, exercise, record, core
#     ab       -> core                                                 (the A/B split's model)
#     lesson   -> core
#     exercise -> core
#     record   -> core
#     core     -> (gpu/ and render/ only)
#   and app/core/, app/ab/, app/lesson/, app/exercise/ and app/record/ include no ImGui or GLFW header: they are the model;
#   render/io/ (image files, no GL) includes nothing of render/ outside itself, and no GL, EGL,
#   GLFW or glad header.
# (gpu/check_layer.cmake, run by every build, keeps GL, window and UI headers out of gpu/.)
#   scripts/check-includes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
generated='^(kc_build_info\.h)$' # written into the build folder by cmake/
declare -A may_include=(
  [window]="window cli script ui ab lesson exercise record core"
  [cli]="cli ui ab lesson exercise record core"
  [script]="script ui ab lesson exercise record core"
  [ui]="ui ab lesson exercise record core"
  [ab]="ab core"
  [lesson]="lesson core"
  [exercise]="exercise core"
  [record]="record core"
  [core]="core"
)
room_of() { # app/ROOM/... -> ROOM; app/main.cpp -> "" (the top)
  local rest=${1#app/}
  [[ $rest == */* ]] && echo "${rest%%/*}" || echo ""
}
bad=0
complain() { echo "$1: $2" >&2; bad=$((bad + 1)); }
while IFS=: read -r file line name; do
  [[ $name =~ $generated ]] && continue
  if [[ ! -f $name || $name != @(app|gpu|render|cpukernel|sandbox|tests|bench)/* ]]; then
    complain "$file:$line" "#include \"$name\" must name its layer from the repository root (e.g. \"gpu/registry.h\")"
  elif [[ $file == gpu/* && $name == @(render|app|cpukernel|sandbox)/* ]] || [[ $file == render/* && $name == app/* ]]; then
    complain "$file:$line" "#include \"$name\" points up the layers (app -> render -> gpu)"
  elif [[ $file == cpukernel/* && $name != @(gpu|cpukernel)/* ]]; then
    complain "$file:$line" "#include \"$name\": cpukernel/ includes only gpu/ and itself"
  elif [[ $file == sandbox/* && $name != @(gpu|cpukernel|sandbox)/* ]]; then
    complain "$file:$line" "#include \"$name\": sandbox/ includes only gpu/, cpukernel/ and itself"
  elif [[ $file == render/io/* && $name == render/* && $name != render/io/* ]]; then
    complain "$file:$line" "#include \"$name\": render/io/ includes nothing of render/ outside itself (it has no GL)"
  elif [[ $file == app/* && $name == app/* ]]; then
    from=$(room_of "$file") to=$(room_of "$name")
    [ -n "$from" ] || continue
    if [ -z "${may_include[$from]+x}" ]; then
      complain "$file:$line" "app/$from/ is not a room of app/ (scripts/check-includes.sh lists them)"
    elif [[ " ${may_include[$from]} " != *" $to "* ]]; then
      complain "$file:$line" "#include \"$name\" points up the rooms of app/ ($from may include: ${may_include[$from]})"
    fi
  fi
done < <(git ls-files 'app/*' 'gpu/*' 'render/*' 'cpukernel/*' 'sandbox/*' 'tests/*' 'bench/*' | grep -E '\.(h|cpp|cu|cuh)$' |
  xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
  sed -E 's/^([^:]*):([0-9]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2:\3/')
# The model and the recorder build without a window: no ImGui, no GLFW.
while IFS=: read -r file line text; do
  complain "$file:$line" "$text: app/core/, app/ab/, app/lesson/, app/exercise/ and app/record/ include no ImGui or GLFW header"
done < <(git ls-files 'app/core/*' 'app/ab/*' 'app/lesson/*' 'app/exercise/*' 'app/record/*' | xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](imgui|GLFW/|backends/imgui)' || true)
# Image files build without GL: kc_io links no GL, EGL, GLFW or glad.
while IFS=: read -r file line text; do
  complain "$file:$line" "$text: render/io/ includes no GL, EGL, GLFW or glad header"
done < <(git ls-files 'render/io/*' | grep -E '\.(h|cpp)$' |
  xargs -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](glad/|GL/|GLES[0-9]*/|EGL/|GLFW/|cuda_gl_interop)' || true)
if ((bad)); then echo "includes: $bad to mend" >&2; exit 1; fi
echo "includes: every project include names its layer, and none points up"
