#!/bin/bash
# Compiles the CUDA kernels (kc_gpu_kernels, the .cu files of kc_gpu) for every architecture a
# release build targets (CMakeLists.txt's KC_RELEASE_CUDA_ARCHITECTURES, the list scripts/run.sh and
# scripts/package.sh build) but those the test build already compiles (KC_TEST_CUDA_ARCHS, default
# 90: scripts/test.sh). What only another architecture refuses, such as a __launch_bounds__ that
# asks more resident threads than its SMs hold, fails here, not on a user's machine. Only the
# kernels: the C++ of kc_gpu is the same for every architecture and the test build compiles it.
#   scripts/check-archs.sh [BUILD_DIR]   (default build-archs)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-archs}
release=$(sed -n 's/^ *set(KC_RELEASE_CUDA_ARCHITECTURES "\([0-9;]*\)")$/\1/p' CMakeLists.txt)
[ -n "$release" ] || { echo "check-archs: no KC_RELEASE_CUDA_ARCHITECTURES in CMakeLists.txt" >&2; exit 1; }
tested=";${KC_TEST_CUDA_ARCHS:-90};"
archs=""
for arch in ${release//;/ }; do
  [[ $tested == *";$arch;"* ]] || archs+="${archs:+;}$arch"
done
if [ -z "$archs" ]; then
  echo "check-archs: the test build compiles every release architecture ($release)"
  exit 0
fi
mkdir -p "$dir"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKC_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES="$archs" \
  >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
grep -o 'CUDA .*, architectures [0-9;]*' "$dir/configure.log"
cmake --build "$dir" -j"$(nproc)" --target kc_gpu_kernels
