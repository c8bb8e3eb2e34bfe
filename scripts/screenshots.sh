#!/bin/bash
# Makes the README's screenshots with kcanvas itself (CPU backend, under Xvfb): the tutorial's
# blend in the block view, block outlines on, zoomed to 400 % about a point, the inspector on a
# pixel; at 1280x800, at 1920x1080 and at 1920x1080 with the UI at 200 %. Then the kernel editor
# beside the canvas (your kernel, the waves starter) at the same three sizes, and a lesson's
# question and its reveal at 1280x800; the A/B split (float against double), the SM timeline (this
# machine's, and the H200's from its file) and an exercise's diff view after a check, each at the
# three sizes.
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
# Checked mode (your kernel, CPU backend: compiled with g++, run in the sandbox): a kernel without
# its bounds check on y, launched with one block row too many, named under the editor in red; and
# the fix_me starter's block view, its overlapping blocks shown by the writer record, inspected.
shoot_checked() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  local w=${screen%x*} h=${screen#*x}
  cat >"$tmp/oob.cu" <<'KERNEL'
// One block row too many: the grid's last row of threads writes past the end.
extern "C" __global__ void paint(Pixel* out, int width, int height, const Pixel* a, const Pixel* b, float t) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width) return; // no check on y
    out[y * width + x] = make_pixel(128 - 128 * y / height, 255 - 255 * x / width, 255 - 255 * y / height);
}
KERNEL
  printf 'window %s\nwait 300\nscreenshot %s\nquit\n' "$screen" "$root/assets/screenshot-out-of-range-$name.png" \
    >"$tmp/oob-$name.txt"
  XDG_DATA_HOME="$tmp/data-oob-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --kernel "$tmp/oob.cu" --size 800x800 --block 32x8 --grid 25x101 "$@" --script "$tmp/oob-$name.txt" >/dev/null
  printf 'window %s\nwait 300\nhover %d,%d\nwait 5\nscreenshot %s\nquit\n' "$screen" $((w * 3 / 4)) $((h / 3)) \
    "$root/assets/screenshot-your-kernel-block-view-$name.png" >"$tmp/view-$name.txt"
  XDG_DATA_HOME="$tmp/data-view-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --kernel fix_me.cu --size 400x300 --view block "$@" --script "$tmp/view-$name.txt" >/dev/null
  echo "wrote assets/screenshot-out-of-range-$name.png and assets/screenshot-your-kernel-block-view-$name.png"
}
shoot_checked 1280x800 1280x800
shoot_checked 1920x1080 1920x1080
shoot_checked 1920x1080-200 1920x1080 --ui-scale 200
# The SM timeline (CPU backend: the emulator's workers as rows): mandelbrot in the start view
# (early blocks blue, late ones yellow), the timeline section open with a bar hovered, its block
# outlined on the canvas in cyan.
shoot_timeline() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  printf 'window %s\nwait 3\nclick Timing\nclick SM timeline\nclick Record the timeline\nwait 10\nwheel -10 timeline chart\nwait 2\nhover timeline chart\nwait 3\nscreenshot %s\nquit\n' \
    "$screen" "$root/assets/screenshot-timeline-$name.png" >"$tmp/timeline-$name.txt"
  XDG_DATA_HOME="$tmp/data-timeline-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --op mandelbrot --size 640x480 --block 32x8 --view start "$@" --script "$tmp/timeline-$name.txt" >/dev/null
  echo "wrote assets/screenshot-timeline-$name.png"
}
shoot_timeline 1280x800 1280x800
shoot_timeline 1920x1080 1920x1080
shoot_timeline 1920x1080-200 1920x1080 --ui-scale 200
# The SM timeline the H200 recorded (results/h200-2026-12-02-session4/, --timeline-out) shown in the
# window with --timeline-in: 132 SM rows, the waves and the tail; the canvas runs the same launch
# (mandelbrot 1280x800, 32x8) on the CPU backend, so a hovered bar's block is outlined on it.
shoot_timeline_h200() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  printf 'window %s\nwait 3\nclick Timing\nclick SM timeline\nhover Close the recorded timeline\nwait 2\nhover timeline chart\nwait 3\nscreenshot %s\nquit\n' \
    "$screen" "$root/assets/screenshot-timeline-h200-$name.png" >"$tmp/timeline-h200-$name.txt"
  XDG_DATA_HOME="$tmp/data-timeline-h200-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --op mandelbrot --size 1280x800 --block 32x8 "$@" \
    --timeline-in "$root/results/h200-2026-12-02-session4/timeline-mandelbrot-1280x800-32x8.json" \
    --script "$tmp/timeline-h200-$name.txt" >/dev/null
  echo "wrote assets/screenshot-timeline-h200-$name.png"
}
shoot_timeline_h200 1280x800 1280x800
shoot_timeline_h200 1920x1080 1920x1080
shoot_timeline_h200 1920x1080-200 1920x1080 --ui-scale 200
# The A/B split: the Mandelbrot set in float (A, left of the divider) against double (B, right),
# the pixels where the two precisions disagree marked magenta, the A/B section open with both
# times and the ratio.
shoot_ab() { # NAME SCREEN_WxH EXTRA_ARGS...
  local name=$1 screen=$2
  shift 2
  local w=${screen%x*}
  cat >"$tmp/ab-a.json" <<'JSON'
{"kcanvas_preset": 1, "op": "mandelbrot", "canvas": {"width": 640, "height": 400},
 "params": {"iter": 300, "center-x": -0.743643887, "center-y": 0.131825904, "zoom": 20000}}
JSON
  cat >"$tmp/ab-b.json" <<'JSON'
{"kcanvas_preset": 1, "op": "mandelbrot", "canvas": {"width": 640, "height": 400},
 "params": {"iter": 300, "center-x": -0.743643887, "center-y": 0.131825904, "zoom": 20000, "double": true}}
JSON
  cat >"$tmp/ab-$name.txt" <<SCRIPT
window ${screen}
wait 3
click A/B split
wheel -30 150,500
wait 20
drag A|B divider -$((w / 12)) 0
wait 20
screenshot $root/assets/screenshot-ab-$name.png
quit
SCRIPT
  XDG_DATA_HOME="$tmp/data-ab-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu \
    --ab "$tmp/ab-a.json" "$tmp/ab-b.json" "$@" --script "$tmp/ab-$name.txt" >/dev/null
  echo "wrote assets/screenshot-ab-$name.png"
}
shoot_ab 1280x800 1280x800
shoot_ab 1920x1080 1920x1080
shoot_ab 1920x1080-200 1920x1080 --ui-scale 200
# An exercise's diff view: the gradient's starter checked (on the CPU: compiled with g++, run in the
# sandbox on every launch), failing on its first launch; the target, the student's picture and the
# diff side by side under the result, at the three sizes.
shoot_exercise() { # NAME SCREEN_WxH SCROLL EXTRA_ARGS...
  local name=$1 screen=$2 scroll=$3
  shift 3
  local w=${screen%x*} h=${screen#*x}
  cat >"$tmp/exercise-$name.txt" <<SCRIPT
window ${screen}
wait 3
click Exercises
click Open gradient
wait 3
click Show a hint
click Check
await 600 Not yet: your kernel fails with
wheel -$scroll 40,300
hover $((w - 20)),$((h / 2))
wait 5
screenshot $root/assets/screenshot-exercise-diff-$name.png
quit
SCRIPT
  XDG_DATA_HOME="$tmp/data-exercise-$name" xvfb-run -a -s "-screen 0 ${screen}x24" "$kcanvas" --backend cpu "$@" \
    --script "$tmp/exercise-$name.txt" >/dev/null
  echo "wrote assets/screenshot-exercise-diff-$name.png"
}
shoot_exercise 1280x800 1280x800 4
shoot_exercise 1920x1080 1920x1080 2
shoot_exercise 1920x1080-200 1920x1080 6 --ui-scale 200
