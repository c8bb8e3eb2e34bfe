#!/bin/bash
# Checks a kcanvas .deb (scripts/package.sh) the way CI does: unpacks it into a scratch root (dpkg -x)
# and, from a folder of its own with no system data dir to fall back on, runs the unpacked
# kcanvas --version and one headless CPU render of the shipped sample images. Also checks the menu
# entry (desktop-file-validate), that every library the binary names comes from a package it
# Depends on, and, where apt has its lists, that those dependencies resolve in the archive.
#   scripts/check-package.sh build-package/kcanvas_0.1.0_amd64.deb
set -euo pipefail
deb=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
dpkg -x "$deb" "$scratch/root"
mkdir -p "$scratch/cwd"
kcanvas=$scratch/root/usr/bin/kcanvas
fail() { echo "check-package: $*" >&2; exit 1; }

desktop-file-validate "$scratch/root/usr/share/applications/kcanvas.desktop"
[ -f "$scratch/root/usr/share/man/man1/kcanvas.1.gz" ] || fail "no man page"

depends=$(dpkg-deb --field "$deb" Depends)
depends_names=$(tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }') # one package name a line
# The libraries the binary itself names (NEEDED), where ldd finds them here.
for needed in $(readelf -d "$kcanvas" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  # "libfmt.so.9 => /lib/.../libfmt.so.9 (0x...)", or the loader alone: "/lib64/ld-linux-x86-64.so.2 (0x...)"
  lib=$(ldd "$kcanvas" | awk -v n="$needed" '$1 == n && $3 ~ /^\// { print $3 } $1 ~ ("/" n "$") { print $1 }')
  [ -n "$lib" ] || fail "$needed (linked) is not found here"
  package=$(dpkg -S "$(realpath "$lib")" 2>/dev/null | head -1 | cut -d: -f1) ||
    package=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) || true
  [ -n "$package" ] || fail "$lib (linked) belongs to no Debian package"
  grep -qxF "$package" <<<"$depends_names" || fail "$lib comes from $package, which Depends lacks: $depends"
done
if compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; then
  apt-get install --simulate -qq "$deb" >"$scratch/apt.log" 2>&1 || { cat "$scratch/apt.log"; fail "dependencies do not resolve"; }
fi

cd "$scratch/cwd"
# A sanitizer build (the clean root packages CI's ASan tree) keeps the sanitizer's options.
run() {
  env -i PATH=/usr/bin:/bin HOME="$scratch/home" XDG_DATA_DIRS=/nonexistent ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
    "$kcanvas" "$@"
}
version=$(run --version)
echo "$version"
grep -q "^data: $scratch/root/usr/share/kcanvas$" <<<"$version" || fail "the unpacked binary did not find its data"
run --headless --backend cpu --frames 2 --size 320x200 --op blend --image logo.png --image2 rose.jpg --out blend.png
[ -s blend.png ] || fail "no picture written"
# The user's kernel on the cpu backend: compiled with the system's g++, run by the sandbox's host
# installed beside kcanvas.
[ -x "$scratch/root/usr/bin/kcanvas-kernel-host" ] || fail "no kcanvas-kernel-host beside kcanvas"
if command -v g++ >/dev/null; then
  run --headless --backend cpu --frames 2 --size 64x64 --kernel "$scratch/root/usr/share/kcanvas/kernels/gradient.cu" \
    --out kernel.png
  [ -s kernel.png ] || fail "your kernel painted nothing on the cpu backend"
fi
echo "check-package: $(basename "$deb") unpacks, finds its data and renders headless"
