#!/bin/bash
# Proves that a new Debian 12 builds kcanvas from scripts/install-deps.sh alone: in a clean root
# (debootstrap minbase, no CUDA toolkit) it runs install-deps.sh, copies the checkout in and runs
# steps there that need nothing more, then a headless CPU render that must write its PNG. A package
# missing from install-deps.sh fails it. Needs root (chroot; mounts in a mount namespace of its own).
#   scripts/check-clean-root.sh ['COMMANDS' run in the root's checkout (default: CI's steps below)]
# The default steps are CI's CPU-only ones, run here instead of on the host, so the proof costs CI
# only the root's own set-up: scripts/sanitize.sh (the ASan/UBSan build, its cpu and gui tests
# under Xvfb), scripts/package.sh + check-package.sh on that tree (without LeakSanitizer: the
# package's run has none of sanitize.sh's suppressions for the GL drivers), and scripts/fuzz.sh.
# The fuzz targets build at nice 19 beside the sanitizer's build and tests (the gui tests take
# turns on one display and leave a core idle); each step's seconds are printed.
#
# Cached in $KC_CLEAN_ROOT_CACHE (default /var/cache/kcanvas-ci) between runs on one machine:
#   bookworm-minbase      debootstrap --variant=minbase (about 1.5 min and 200 MB, once);
#   bookworm-deps-HASH    that root after install-deps.sh, keyed by the script's hash: any change
#                         to install-deps.sh (a package added or removed) installs anew from the
#                         minbase root, so the cache never proves a list that is not the current one;
#   apt-archives          the .deb files apt fetched, so installing anew downloads nothing twice.
# Each run works in a fresh copy of the deps root (the checkout and its build trees are new every
# time), in a folder of its own (run.XXXXXX), and deletes it afterwards: runs at once do not meet.
# Making and copying the cached roots happen under a lock ($cache/lock), so one run never copies a
# root that another is making or removing.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${KC_CLEAN_ROOT_CACHE:-/var/cache/kcanvas-ci}
mirror=http://deb.debian.org/debian
# (in the root's bash, errexit on: each line that fails ends the steps)
default_steps=$(cat <<'STEPS'
timed() { local started=$SECONDS status=0; "$@" || status=$?; echo "== clean root: $((SECONDS - started)) s  $*" >&2; return $status; }
nice -n 19 scripts/fuzz.sh --build-only >/tmp/fuzz-build.log 2>&1 &
fuzz_build=$!
timed scripts/sanitize.sh -j"$(nproc)"
timed scripts/package.sh build-asan >/tmp/package.log
ASAN_OPTIONS=detect_leaks=0 timed scripts/check-package.sh build-asan/kcanvas_*.deb
timed wait $fuzz_build || { cat /tmp/fuzz-build.log; echo "check-clean-root: building the fuzz targets failed" >&2; exit 1; }
timed scripts/fuzz.sh 60
STEPS
)
steps=${1:-$default_steps}
[ "$(id -u)" -eq 0 ] || { echo "check-clean-root: needs root (debootstrap, chroot)" >&2; exit 2; }
stamp() { printf '%5d s  check-clean-root: %s\n' "$SECONDS" "$*"; }
mkdir -p "$cache/apt-archives/partial"
exec 9>"$cache/lock"
flock 9

# chroot_run ROOT COMMAND: COMMAND by bash in ROOT with /proc, /dev, /sys, a fresh /tmp and the
# shared apt archive mounted in a private mount namespace, so the mounts vanish with it; in a PID
# namespace of its own, so nothing it left running (a background build of a failed run) outlives it.
chroot_run() {
  cp /etc/resolv.conf "$1/etc/resolv.conf"
  unshare --mount --propagation private --pid --fork bash -euo pipefail -c '
    mount -t proc proc "$1/proc"
    mount --rbind /dev "$1/dev"
    mount -t sysfs sys "$1/sys"
    mount -t tmpfs tmpfs "$1/tmp"
    mount --bind "$2" "$1/var/cache/apt/archives"
    chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -euo pipefail -c "$3"
  ' chroot_run "$1" "$cache/apt-archives" "$2"
}
not_mounted() { ! findmnt -rn -o TARGET | grep -qF "$1"; }
remove_root() { not_mounted "$1" && rm -rf --one-file-system "$1"; }

base=$cache/bookworm-minbase
if [ ! -x "$base/usr/bin/apt-get" ]; then
  command -v debootstrap >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap; }
  remove_root "$base.partial"
  debootstrap --variant=minbase bookworm "$base.partial" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log"; exit 1; }
  # As a new Debian 12 installation has them: the point releases' updates and the security fixes.
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
    "$mirror" "$mirror" "http://deb.debian.org/debian-security" >"$base.partial/etc/apt/sources.list"
  # apt keeps the .deb files it fetched in the shared archive folder.
  echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$base.partial/etc/apt/apt.conf.d/01keep-debs"
  mv "$base.partial" "$base"
  stamp "made the minbase root ($base)"
fi

deps=$cache/bookworm-deps-$(sha256sum "$src/scripts/install-deps.sh" | cut -c1-16)
if [ ! -x "$deps/usr/bin/cmake" ]; then
  remove_root "$deps.partial"
  cp -a "$base" "$deps.partial"
  mkdir -p "$deps.partial/src/scripts"
  cp "$src/scripts/install-deps.sh" "$deps.partial/src/scripts/"
  chroot_run "$deps.partial" "cd /src && scripts/install-deps.sh" >"$cache/install-deps.log" 2>&1 ||
    { tail -30 "$cache/install-deps.log"; echo "check-clean-root: scripts/install-deps.sh failed in the clean root" >&2; exit 1; }
  grep -E "^installing:" "$cache/install-deps.log" || true
  rm -rf "$deps.partial/src"
  for old in "$cache"/bookworm-deps-*; do [ "$old" = "$deps.partial" ] || remove_root "$old"; done
  mv "$deps.partial" "$deps"
  stamp "ran install-deps.sh in a copy of the minbase root (kept as $deps)"
else
  stamp "install-deps.sh is unchanged since $deps was made from the minbase root by it"
fi

# Runs killed before they could clean up leave their folders; none lives half a day.
find "$cache" -maxdepth 1 -name 'run.*' -mmin +720 | while read -r old; do remove_root "$old" || true; done
work=$(mktemp -d "$cache/run.XXXXXX")
trap 'remove_root "$work"' EXIT
cp -a "$deps/." "$work"
touch "$work" # cp -a gave it the deps root's time: the age above is the run's
flock -u 9
# The checkout as git sees it (tracked files and new ones it does not ignore): no build folders.
mkdir -p "$work/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work/src"
stamp "copied the checkout into a fresh copy of that root"

# (the steps run in a bash of their own, so that errexit stops them at the first that fails)
chroot_run "$work" "cd /src
  scripts/install-deps.sh
  bash -euo pipefail -c $(printf %q "$steps") || { echo 'check-clean-root: a step failed in the clean root' >&2; exit 1; }
  # The binary built here renders a picture with what the root has (CPU backend, no display).
  ASAN_OPTIONS=detect_leaks=0 build-asan/kcanvas --headless --backend cpu --frames 2 --size 320x200 \
    --op blend --image assets/logo.png --image2 assets/rose.jpg --out /src/clean-root.png
  head -c 8 /src/clean-root.png | od -An -c | grep -q 'P   N   G' ||
    { echo 'check-clean-root: the headless render wrote no PNG' >&2; exit 1; }"
stamp "a new Debian 12 root built kcanvas, ran its steps and rendered a PNG ($(stat -c %s "$work/src/clean-root.png") bytes)"
