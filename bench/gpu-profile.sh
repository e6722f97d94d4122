#!/usr/bin/env bash
# Where the CPU goes, by thread and function, on the lent GPU machine (its image has no perf):
# Debian's perf, packed by `bash bench/bundle.sh --perf` into .gpu/perf.tar.xz, samples the CPU
# clock (no hardware counters there) while a command runs, then reports.
#   bash bench/gpu-profile.sh NAME COMMAND...     # e.g. NAME=across vkcompute-bench --filter ...
# Writes $OUT/profile-NAME.txt: the share of every thread, then each busy thread's functions by
# self time, with their library (a per-library sort of one thread's samples read wrong here), and
# with what they call (frame pointers reach through our code only when the plugin is built with
# -fno-omit-frame-pointer: PROFILE_BUILD=build-fp in bundle.sh).
# PERF_FREQ (2000 samples/s per thread), PERF_TIME (a part of the run to report, e.g. 50%-100%),
# PERF_THREADS (how many of the busiest threads to detail, 6); PERF_REPORT_ONLY=1 reports the data
# of an earlier record of NAME again (another PERF_TIME) into profile-NAME-PERF_TIME.txt.
# PERF_CALLGRAPH=dwarf,8192 unwinds from copies of the stack instead of frame pointers: through
# NVIDIA's drivers too (their functions keep no frame pointer, so with -g a sample inside them loses
# its callers: run 106 missed a quarter of the elements' CPU that way; 200 MB of data for 8 s).
# PERF_GROUP (an extended regular expression of thread names, e.g. '^(queue|vkc[0-9:])' for the
# threads that run the elements after a decoder) also details those threads together.
set -uo pipefail
name=$1
shift
OUT=${OUT:-/tmp}
perfdir=/tmp/vkc-perf
if [ ! -x $perfdir/perf ]; then
  mkdir -p $perfdir && tar xJf .gpu/perf.tar.xz -C $perfdir || exit 1
fi
perf() { LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$perfdir/lib $perfdir/perf "$@"; }
data=/tmp/profile-$name.data
txt=$OUT/profile-$name.txt
rc=0
if [ "${PERF_REPORT_ONLY:-0}" = 1 ]; then
  txt=$OUT/profile-$name-${PERF_TIME//%/}.txt
else
  callgraph=(-g)
  [ -n "${PERF_CALLGRAPH:-}" ] && callgraph=(--call-graph "$PERF_CALLGRAPH")
  perf record -q -e cpu-clock -F "${PERF_FREQ:-2000}" "${callgraph[@]}" -o "$data" -- "$@" >"$OUT/profile-$name.out" 2>&1
  rc=$?
  tail -25 "$OUT/profile-$name.out"
fi
range=()
[ -n "${PERF_TIME:-}" ] && range=(--time "$PERF_TIME")
report() { perf report -i "$data" "${range[@]}" --stdio -q "$@" 2>/dev/null; }
{
  echo "# $name: $* (exit $rc) ${PERF_TIME:-}"
  echo "## threads"
  report --no-children --sort comm -g none | head -25
  if [ -n "${PERF_GROUP:-}" ]; then
    group=$(report --no-children --sort comm -g none | awk '{print $2}' | grep -E "$PERF_GROUP" | paste -sd,)
    echo "## threads matching $PERF_GROUP together: functions, self"
    report --no-children --comms "$group" --percentage relative --sort dso,sym -g none | head -70
    echo "## threads matching $PERF_GROUP together: functions with what they call"
    report --children --comms "$group" --percentage relative --sort sym -g none --percent-limit 1.5 | head -90
  fi
  for comm in $(report --no-children --sort comm -g none | awk '$1+0 >= 1 {print $2}' |
                head -"${PERF_THREADS:-6}"); do
    echo "## $comm: functions, self"
    report --no-children --comms "$comm" --percentage relative --sort dso,sym -g none | head -40
    echo "## $comm: functions with what they call"
    report --children --comms "$comm" --percentage relative --sort sym -g none --percent-limit 3 | head -50
  done
} >"$txt"
echo "profile: $txt"
