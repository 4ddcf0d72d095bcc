#!/usr/bin/env bash
# The PNG sizes of the icon, from the SVG (needs librsvg2-bin). The window embeds them;
# cmake --install puts each into share/icons/hicolor/NxN/apps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 16 22 24 32 48 64 128 256; do
    rsvg-convert -w "$size" -h "$size" io.github.attnscope.attnscope.svg -o "attnscope-$size.png"
done
