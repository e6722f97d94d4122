#!/usr/bin/env bash
# Builds the libFuzzer target of the .cube reader with clang (the main build uses g++), and runs
# it on the committed seed corpus when given libFuzzer arguments:
#   tests/fuzz/build.sh                      # build only: build-fuzz/cube_fuzzer
#   tests/fuzz/build.sh -max_total_time=600  # build, then fuzz for 10 minutes
# New inputs go to build-fuzz/corpus (the seeds in tests/fuzz/corpus stay as committed).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-fuzz
mkdir -p "$out/corpus"
CXX=${CXX:-$(command -v clang++-14 || command -v clang++)}
"$CXX" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Igst/lut tests/fuzz/cube_fuzzer.cpp gst/lut/cube.cpp -o "$out/cube_fuzzer"
if [ $# -gt 0 ]; then
  exec "$out/cube_fuzzer" -dict=tests/fuzz/cube.dict -max_len=4096 "$@" "$out/corpus" tests/fuzz/corpus
fi
