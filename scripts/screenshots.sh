#!/bin/bash
# Makes the README's screenshots with kcanvas itself (CPU backend, under Xvfb): the tutorial's
# blend in the block view, block outlines on, zoomed to 400 % about a point, the inspector on a
# pixel; at 1280x800, at 1920x1080 and at 1920x1080 with the UI at 200 %. Then the kernel editor
# beside the canvas (your kernel, the waves starter) at the same three sizes, and a lesson's
# question and its reveal at 1280x800.
#   scripts/screenshots.sh [build dir]     (default build-test; writes assets/screenshot-*.png)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kcanvas=${1:-$root/build-test}/kcanvas
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shoot() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  local w=${screen%x*} h=${screen#*x}
  cat >"$tmp/$name.txt" <<SCRIPT
window ${screen}
wait 3
click Block outlines
wheel 30 100,300
wheel 4 $((w * 3 / 5)),$((h * 2 / 5))
wait 3
hover $((w * 3 / 5 + 40)),$((h * 2 / 5 + 20))
wait 3
screenshot $root/assets/screenshot-$name.png
quit
SCRIPT
  xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu --op blend --tutorial --view block "$@" \
    --script "$tmp/$name.txt" >/dev/null
  echo "wrote assets/screenshot-$name.png"
}
shoot 1280x800 1280x800
shoot 1920x1080 1920x1080
shoot 1920x1080-200 1920x1080 --ui-scale 200
shoot_editor() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  cat >"$tmp/editor-$name.txt" <<SCRIPT
window ${screen}
op user_kernel
starter waves
wait 3
click Kernel source
key ctrl+end
type // my change
wait 3
screenshot $root/assets/screenshot-editor-$name.png
quit
SCRIPT
  XDG_DATA_HOME="$tmp/data-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu --size 640x480 "$@" \
    --script "$tmp/editor-$name.txt" >/dev/null
  echo "wrote assets/screenshot-editor-$name.png"
}
shoot_editor 1280x800 1280x800
shoot_editor 1920x1080 1920x1080
shoot_editor 1920x1080-200 1920x1080 --ui-scale 200
# A lesson beside the canvas: the tutorial's step 2 asking which pixel thread (3, 2) of block
# (1, 0) paints (the plain picture while it waits), then the reveal after a typed answer: the
# answer, why, and the step's block view with that pixel inspected.
shoot_lesson() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  cat >"$tmp/lesson-$name.txt" <<SCRIPT
window ${screen}
wait 3
click Next
wait 30
screenshot $root/assets/screenshot-lesson-question-$name.png
click Your answer
type 303, 1
click Answer
wheel 7 744,2
wait 30
screenshot $root/assets/screenshot-lesson-reveal-$name.png
quit
SCRIPT
  XDG_DATA_HOME="$tmp/data-lesson-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --lesson tutorial "$@" --script "$tmp/lesson-$name.txt" >/dev/null
  echo "wrote assets/screenshot-lesson-question-$name.png and assets/screenshot-lesson-reveal-$name.png"
}
shoot_lesson 1280x800 1280x800
