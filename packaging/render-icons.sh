#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renders resources/icons/servelab.svg to the PNG sizes the hicolor theme installs
# (resources/icons/servelab-N.png, committed: the build needs no SVG renderer). Run it after
# changing the SVG. Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"
command -v rsvg-convert >/dev/null || { echo "render-icons.sh: install librsvg2-bin" >&2; exit 1; }
for size in 16 24 32 48 64 128 256; do
    rsvg-convert -w $size -h $size servelab.svg -o servelab-$size.png
done
echo "rendered $(ls servelab-*.png | wc -l) PNGs"
