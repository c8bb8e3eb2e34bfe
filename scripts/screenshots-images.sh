#!/bin/bash
# Makes the README's screenshots of the Images section's sample menu with kcanvas itself (CPU
# backend, under Xvfb): Sobel on the shipped rose, the "Sample A" list open; at 1280x800, at
# 1920x1080 and at 1920x1080 with the UI at 200 %.
#   scripts/screenshots-images.sh [build dir]     (default build-test; writes assets/screenshot-samples-*.png)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kcanvas=${1:-$root/build-test}/kcanvas
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shoot() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  cat >"$tmp/$name.txt" <<SCRIPT
window ${screen}
wait 3
click Operation
click Sobel edges
wait 3
click Sample A
wait 3
hover rose.jpg
wait 3
screenshot $root/assets/screenshot-samples-$name.png
quit
SCRIPT
  xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu "$@" --script "$tmp/$name.txt" >/dev/null
  echo "wrote assets/screenshot-samples-$name.png"
}
shoot 1280x800 1280x800
shoot 1920x1080 1920x1080
shoot 1920x1080-200 1920x1080 --ui-scale 200
