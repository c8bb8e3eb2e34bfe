#!/bin/bash
# Makes the hicolor icons in packaging/icons from assets/logo.png (480x360): each size square,
# the logo fitted inside and centred on a transparent background. The PNGs are committed, so a
# build needs no ImageMagick; run this again when the logo changes (ImageMagick 6's convert).
set -euo pipefail
cd "$(dirname "$0")/.."
for size in 16 22 24 32 48 64 128 256; do
  convert assets/logo.png -resize "${size}x${size}" -background none -gravity center -extent "${size}x${size}" \
    -strip "PNG32:packaging/icons/kcanvas-${size}.png"
done
