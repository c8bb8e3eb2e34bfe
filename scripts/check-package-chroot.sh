#!/bin/bash
# Installs a kcanvas .deb with apt into a clean Debian 12 root, made with debootstrap (minbase, from
# deb.debian.org; about 5 minutes and 150 MB the first time, kept for later runs), then runs the
# installed kcanvas --version and a headless CPU render inside it. Needs root.
#   scripts/check-package-chroot.sh build-package/kcanvas_0.1.0_amd64.deb [ROOT (default /tmp/kcanvas-bookworm)]
set -euo pipefail
deb=$(realpath "$1")
root=${2:-/tmp/kcanvas-bookworm}
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")"
in_root sh -c 'cd /tmp && kcanvas --version && kcanvas --headless --backend cpu --frames 2 --size 320x200 \
  --op blend --image logo.png --image2 rose.jpg --out /tmp/blend.png && ls -l /tmp/blend.png && man -w kcanvas 2>/dev/null; \
  dpkg -L kcanvas | grep -E "desktop|hicolor/256|kernels/waves"'
