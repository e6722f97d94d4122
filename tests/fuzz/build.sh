#!/usr/bin/env bash
# Builds a libFuzzer target of the lookup-table readers (cube: the .cube reader; png: the PNG
# lookup-image/HALD reader) with clang, ASan and UBSan (the main build uses g++), and runs it on
# its committed seed corpus when given libFuzzer arguments:
#   tests/fuzz/build.sh cube                      # build only: build-fuzz/cube_fuzzer
#   tests/fuzz/build.sh cube -max_total_time=600  # build, then fuzz for 10 minutes
#   tests/fuzz/build.sh png -max_total_time=600
# New inputs go to build-fuzz/<target>_corpus (the seeds in tests/fuzz/<target>_corpus stay as
# committed; tests/fuzz/make_png_corpus.py writes the PNG seeds). The test suite builds both
# targets with the normal compiler and runs their seeds (fuzz-corpus-cube, fuzz-corpus-png).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: build.sh cube|png [libFuzzer arguments]}
shift
out=build-fuzz
mkdir -p "$out/${target}_corpus"
CXX=${CXX:-$(command -v clang++-14 || command -v clang++)}
case "$target" in
  cube) sources=(gst/lut/cube.cpp); libs=(); run=(-dict=tests/fuzz/cube.dict -max_len=4096) ;;
  png) sources=(gst/lut/png.cpp); libs=($(pkg-config --libs libpng)); run=(-max_len=8192) ;;
  *) echo "unknown target $target: cube or png" >&2; exit 2 ;;
esac
"$CXX" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  $(pkg-config --cflags libpng) -Igst/lut "tests/fuzz/${target}_fuzzer.cpp" "${sources[@]}" "${libs[@]}" \
  -o "$out/${target}_fuzzer"
if [ $# -gt 0 ]; then
  exec "$out/${target}_fuzzer" "${run[@]}" "$@" "$out/${target}_corpus" "tests/fuzz/${target}_corpus"
fi
