#!/usr/bin/env bash
# On the lent GPU, after bench/bundle.sh: one many-stream case (bench/gpu-many-streams.sh) watched for
# a hang. A case still running after SECONDS gets a SIGQUIT, which makes vkcompute-bench print every
# thread's backtrace (bench/thread_dump.cpp); the dump is kept as $OUT/dump-LABEL.txt.gz (frames as
# module(+offset): symbolize them here with addr2line -f -C -e build/gst/libgstvkcompute.so OFFSET,
# from the build the bundle was made of), then the case is killed.
#   bash bench/gpu-watch.sh SECONDS LABEL [VAR=VALUE...] -- "STREAMS FORMAT ELEMENTS..."
# e.g. bash bench/gpu-watch.sh 60 trim0 GST_VKCOMPUTE_TRIM=0 BASELINE=0 -- "64 RGBA lumamax"
# Prints the case's summary lines (prefixed LABEL:), and at a hang the threads' kernel waits and the
# plugin's error lines. The case's stderr is $OUT/LABEL/many-streams.stderr (large: delete it before
# the run ends when files must come back).
set -u
secs=$1 label=$2
shift 2
OUT=${OUT:-/tmp}
mkdir -p "$OUT/$label"
(
  export OUT=$OUT/$label
  while [ "$1" != -- ]; do export "${1?}"; shift; done
  shift
  bash bench/gpu-many-streams.sh "$@" |
    grep -E 'late \(|CPU:|start:|stop:|our memory|RSS|exit status' | sed "s/^/$label: /" | cut -c1-330
) &
case_pid=$!
for _ in $(seq "$secs"); do
  sleep 1
  kill -0 "$case_pid" 2>/dev/null || { wait "$case_pid"; exit 0; }
done
echo "$label: HUNG after $secs s"
stderr=$OUT/$label/many-streams.stderr
bench_pid=$(pgrep -f "vkcompute-bench --many-streams" | head -1)
grep -iE "error|took longer|lost" "$stderr" | sort | uniq -c | sort -rn | head -8 | sed "s/^/$label: /"
for t in /proc/"$bench_pid"/task/*; do echo "$(cat "$t"/comm) $(cat "$t"/wchan)"; done | sort | uniq -c |
  sort -rn | head -12 | sed "s/^/$label: /"
kill -QUIT "$bench_pid"
sleep 8
# The dump's lines, without the log lines other threads wrote meanwhile; paths shortened to the file.
sed -n '/backtraces of every thread/,$p' "$stderr" | grep -vE 'DEBUG|INFO|LOG|TRACE|WARN|FIXME' |
  grep -E '^(====|---|load base|\()|\(\+0x|\(.*\+0x' | sed -E 's/\[0x[0-9a-f]+\]$//; s#^/[^ ]*/##' |
  gzip -9 >"$OUT/dump-$label.txt.gz"
echo "$label: thread dump in $OUT/dump-$label.txt.gz ($(zcat "$OUT/dump-$label.txt.gz" | grep -c '^---') threads)"
kill -9 "$bench_pid" 2>/dev/null
wait "$case_pid"
exit 1
