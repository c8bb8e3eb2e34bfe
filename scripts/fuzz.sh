#!/bin/bash
# Fuzzes with libFuzzer, ASan and UBSan for a bounded time, every target in turn:
#   fuzz_load_image  image input (kc::load_image + fit_image), seeds tests/fuzz/corpus/images
#   fuzz_cli         the command line (kc::parse_options), seeds tests/fuzz/corpus/cli
#   fuzz_ui_script   the --script parser and each command's arguments (kc::UiScript), seeds tests/fuzz/corpus/script
#   fuzz_preset      presets (kc::parse_preset: size, depth, types, messages), seeds tests/fuzz/corpus/presets
#   fuzz_settings    settings.conf and imgui.ini (checked, then loaded into ImGui), seeds tests/fuzz/corpus/settings
#   scripts/fuzz.sh [seconds]      (seconds for the image target, default 60; the command line and the
#                                   script get 1/2 of it each, presets 1/3, the settings 1/6: CI's 60 make
#                                   150 s in all, as before presets and settings had targets of their own)
# Builds the targets in build-fuzz with clang (CPU only), keeps what each learns in
# build-fuzz/corpus-<target>, and fails on any crash, leak, UB or slow input; the input that did it
# is left in build-fuzz/findings/ (make it a test: tests/cpu/test_image_files.cpp, tests/cpu/test_cli.cpp,
# tests/cpu/test_script_input.cpp, tests/cpu/test_presets.cpp, tests/cpu/test_settings.cpp).
set -euo pipefail
seconds=${1:-60}
parser_seconds=$(((seconds + 1) / 2))
preset_seconds=$(((seconds + 2) / 3))
settings_seconds=$(((seconds + 5) / 6))
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
"$root/scripts/install-deps.sh" # clang and libclang-rt-14-dev (libFuzzer) among them
cmake -S "$root" -B "$build" -DKC_FUZZ=ON -DKC_WITH_CUDA=OFF -DKC_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz_load_image fuzz_cli fuzz_ui_script fuzz_preset fuzz_settings -j"$(nproc)"
mkdir -p "$build/findings"
# run TARGET SECONDS SEEDS MAX_LEN: the first folder receives new inputs; the committed seeds are only read.
run() {
  local target=$1 time=$2 seeds=$3 max_len=$4
  mkdir -p "$build/corpus-$target"
  echo "== $target: $time s"
  "$build/$target" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$build/findings/$target-" -print_final_stats=1 "$build/corpus-$target" "$root/tests/fuzz/corpus/$seeds"
}
run fuzz_load_image "$seconds" images 65536
run fuzz_cli "$parser_seconds" cli 1024
run fuzz_ui_script "$parser_seconds" script 4096
run fuzz_preset "$preset_seconds" presets 16384
run fuzz_settings "$settings_seconds" settings 8192
