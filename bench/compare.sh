#!/usr/bin/env bash
# One command, one table: kcanvas bench, the peers (bench/peers.py: CuPy RawKernel and array
# expressions, OpenCV on the CPU, cuBLAS SGEMM through CuPy) and cuBLAS linked directly
# (cublas_sgemm, where it was built) in one run; bench/compare.py then prints per op and size each
# one's µs, % of a device copy and its ratio to kcanvas, and writes compare.csv and compare.md.
#
#   bench/compare.sh [BUILD_DIR [OUT_DIR]]      (defaults: build, compare-out)
#   env: SIZES (3840x2160,7680x4320), REPS (50), OPS (the elementwise, stencil, histogram and matmul ops)
set -euo pipefail
build=${1:-build}
out=${2:-compare-out}
sizes=${SIZES:-3840x2160,7680x4320}
reps=${REPS:-50}
ops=${OPS:-gradient,checkerboard,blend,invert,grayscale,add,threshold,box_blur,sobel,histogram,matmul}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$build/kcanvas" ] || { echo "compare.sh: no $build/kcanvas (build it first, or name the build folder)" >&2; exit 2; }
mkdir -p "$out"
"$build/kcanvas" bench --ops "$ops" --sizes "$sizes" --backend cuda-interop --present surface \
    --pixels-per-thread 1,4 --reps "$reps" --csv "$out/kcanvas.csv" --json-out "$out/kcanvas.json" | tee "$out/kcanvas.txt"
python3 "$here/peers.py" --sizes "$sizes" --reps $((reps * 2)) --csv "$out/peers.csv" | tee "$out/peers.txt"
if [ -x "$build/cublas_sgemm" ]; then
    "$build/cublas_sgemm" 20 | tee "$out/cublas.csv"
else
    echo "compare.sh: no $build/cublas_sgemm; the cuBLAS rows come through CuPy alone" >&2
fi
python3 "$here/compare.py" "$out"
