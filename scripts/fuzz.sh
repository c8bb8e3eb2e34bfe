#!/bin/bash
# Fuzzes image input (kc::load_image + fit_image) with libFuzzer, ASan and UBSan for a bounded time.
#   scripts/fuzz.sh [seconds]      (default 60)
# Builds the target in build-fuzz with clang (CPU only), seeds it with tests/fuzz/corpus/images,
# keeps what it learns in build-fuzz/corpus, and fails on any crash, leak, UB or slow input; the
# input that did it is left in build-fuzz/findings/ (make it a test in tests/test_image_files.cpp).
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
"$root/scripts/install-deps.sh"
if ! dpkg-query -W -f='${Status}\n' clang libclang-rt-14-dev 2>/dev/null | grep -c "install ok installed" | grep -q 2; then
  echo "installing clang and its sanitizer runtime (libFuzzer)"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi
cmake -S "$root" -B "$build" -DKC_FUZZ=ON -DKC_WITH_CUDA=OFF -DKC_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz_load_image -j"$(nproc)"
mkdir -p "$build/corpus" "$build/findings"
# The first folder receives new inputs; the committed seeds are only read.
"$build/fuzz_load_image" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$build/findings/" -print_final_stats=1 "$build/corpus" "$root/tests/fuzz/corpus/images"
