#!/bin/bash
# Fuzzes with libFuzzer, ASan and UBSan for a bounded time, every target in turn:
#   fuzz_load_image  image input (kc::load_image + fit_image), seeds tests/fuzz/corpus/images
#   fuzz_cli         the command line (kc::parse_options), seeds tests/fuzz/corpus/cli
#   fuzz_ui_script   the --script parser and each command's arguments (kc::UiScript), seeds tests/fuzz/corpus/script
#   fuzz_preset      presets (kc::parse_preset: size, depth, types, messages), seeds tests/fuzz/corpus/presets
#   fuzz_settings    settings.conf and imgui.ini (checked, then loaded into ImGui), seeds tests/fuzz/corpus/settings
#   scripts/fuzz.sh [seconds]      (seconds for the image target, default 60; the command line and the
#                                   script get 1/2 of it each, presets 1/3, the settings 1/6: CI's 60 make
#                                   150 s of fuzzing in all)
#   scripts/fuzz.sh --build-only   (builds the targets and stops: CI builds them beside the sanitizer run)
# The targets run in two lanes at once, one a core (images then presets; the command line, the script,
# then the settings): CI's 150 s of fuzzing take 80 s. Each lane's output goes to build-fuzz/lane-*.log:
# a failed lane's is printed whole, a passed one's as each target's final stats.
# Builds the targets in build-fuzz with clang (CPU only), keeps what each learns in
# build-fuzz/corpus-<target>, and fails on any crash, leak, UB or slow input; the input that did it
# is left in build-fuzz/findings/ (make it a test: tests/cpu/test_image_files.cpp, tests/cpu/test_cli.cpp,
# tests/cpu/test_script_input.cpp, tests/cpu/test_presets.cpp, tests/cpu/test_settings.cpp).
set -euo pipefail
build_only=false
[ "${1:-}" = --build-only ] && build_only=true && shift
seconds=${1:-60}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: seconds must be a whole number above 0, not '$seconds'" >&2; exit 2; }
parser_seconds=$(((seconds + 1) / 2))
preset_seconds=$(((seconds + 2) / 3))
settings_seconds=$(((seconds + 5) / 6))
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
"$root/scripts/install-deps.sh" # clang and libclang-rt-14-dev (libFuzzer) among them
cmake -S "$root" -B "$build" -DKC_FUZZ=ON -DKC_WITH_CUDA=OFF -DKC_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz_load_image fuzz_cli fuzz_ui_script fuzz_preset fuzz_settings -j"$(nproc)"
$build_only && exit 0
mkdir -p "$build/findings"
# run TARGET SECONDS SEEDS MAX_LEN: the first folder receives new inputs; the committed seeds are only read.
run() {
  local target=$1 time=$2 seeds=$3 max_len=$4
  mkdir -p "$build/corpus-$target"
  echo "== $target: $time s"
  "$build/$target" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$build/findings/$target-" -print_final_stats=1 "$build/corpus-$target" "$root/tests/fuzz/corpus/$seeds"
}
lane_images() {
  run fuzz_load_image "$seconds" images 65536
  run fuzz_preset "$preset_seconds" presets 16384
}
lane_parsers() {
  run fuzz_cli "$parser_seconds" cli 1024
  run fuzz_ui_script "$parser_seconds" script 4096
  run fuzz_settings "$settings_seconds" settings 8192
}
(lane_images) >"$build/lane-images.log" 2>&1 &
images=$!
(lane_parsers) >"$build/lane-parsers.log" 2>&1 &
parsers=$!
failed=0
for lane in images parsers; do
  if wait "${!lane}"; then
    grep -E '^== |^Done |^stat::number_of_executed_units|^stat::new_units_added' "$build/lane-$lane.log" || true
  else
    cat "$build/lane-$lane.log"
    echo "fuzz.sh: the $lane lane failed (its inputs are in $build/findings/)" >&2
    failed=1
  fi
done
exit $failed
