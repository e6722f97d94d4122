#!/usr/bin/env bash
# Writes a smooth N³ .cube (a mild S-curve with a warm tint) for timing the lut element:
#   bash bench/make-cube.sh 33 /tmp/bench33.cube
set -euo pipefail
n=${1:-33}
out=${2:-/dev/stdout}
awk -v n="$n" 'BEGIN {
  print "TITLE \"bench " n "\""; print "LUT_3D_SIZE " n
  for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
    x = r / (n - 1); y = g / (n - 1); z = b / (n - 1)
    printf "%.6f %.6f %.6f\n", x + 0.08 * sin(6.2832 * x) + 0.03 * y, y + 0.05 * sin(6.2832 * y), 0.92 * z + 0.04 * x
  }
}' > "$out"
