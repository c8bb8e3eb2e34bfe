#!/bin/bash
# Builds a CPU-only tree (KC_WITH_CUDA=OFF) with AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer (build-asan, -DKC_SANITIZE=address,undefined) and runs its cpu and gui tests under
# Xvfb; any report fails the test it is in. .ci/run runs it: it is also CI's KC_WITH_CUDA=OFF build.
# Tests labelled slow (gui tests that take minutes under ASan: tests/CMakeLists.txt's
# KC_SLOW_UNDER_SANITIZERS) are left out here; scripts/test.sh runs them unsanitized.
#   scripts/sanitize.sh [ctest args...]
#   KC_SANITIZE_CXX=g++ KC_SANITIZE_CC=gcc scripts/sanitize.sh     (another compiler)
# -O1 -g1 rather than RelWithDebInfo's -O2 -g: ASan's usual level, and reports still name
# file:line. CPU seconds to compile app/cli/headless.cpp (gcc 12, clang 14): gcc -O2 -g 27.2, gcc -O1
# -g1 13.9 (ASan alone 8.2, UBSan alone 14.0), clang -O1 -g1 14.2, clang -O2 -g 13.2; without
# sanitizers gcc -O2 7.0. Clang is no faster at -O1, and gcc keeps -Werror: gcc it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
"$root/scripts/install-deps.sh"
cc=${KC_SANITIZE_CC:-gcc} cxx=${KC_SANITIZE_CXX:-g++}
cmake -S "$root" -B "$build" -DKC_WITH_CUDA=OFF -DKC_SANITIZE=address,undefined \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" >/dev/null
cmake --build "$build" -j"$(nproc)"
# Every process the tests start (kcanvas under xvfb-run among them) inherits these.
lib=/usr/lib/x86_64-linux-gnu
preload=""
for m in libEGL.so.1 libEGL_mesa.so.0 libGLX.so.0 libGLX_mesa.so.0 libglapi.so.0 dri/swrast_dri.so; do
  [ -e "$lib/$m" ] && preload="$preload $lib/$m"
done
export LD_PRELOAD="${preload# }"
# The preloaded modules come before the ASan runtime in the library list: tell ASan that is meant.
# ASan+UBSan at -O1 run the CPU emulator several times slower: tests that guard against hangs
# scale their time limits and frame budgets by this (tests/time_factor.h).
export KC_TEST_TIME_FACTOR=4
export ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
cd "$build"
echo "sanitize.sh: leaves out the $(ctest -N -L slow | grep -c 'Test *#') tests labelled slow (scripts/test.sh runs them)"
if [ -n "${DISPLAY:-}" ]; then
  ctest --output-on-failure -L 'cpu|gui' -LE slow "$@"
else
  xvfb-run -a -s "-screen 0 1400x900x24" ctest --output-on-failure -L 'cpu|gui' -LE slow "$@"
fi
