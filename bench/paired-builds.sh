#!/usr/bin/env bash
# Compares two builds (two checkouts of Vigil) on one single-threaded bench by running both at once, each pinned to
# a core of its own, and then again with the cores swapped. The two runs of a round share whatever the machine
# does meanwhile (another tenant, a slower spell), which runs in turn do not; swapping cancels a difference
# between the cores. Compare the averages of each build over both rounds.
#
# Usage: bench/paired-builds.sh TREE_A TREE_B SUMMARY_PATTERN -- BENCH_FILE [ARGS...]
#   e.g. bench/paired-builds.sh /tmp/before . '^Median' -- bench/scoring-steady.ts --seconds 60
# Each tree needs node_modules (a symlink to another checkout's will do), and VIGIL_SHARED_DIR must be set when it
# does not sit next to shared/ (the test data). Prints, per round, the lines of each
# run's output that match SUMMARY_PATTERN (grep -E); full outputs are left in $TMPDIR/paired-builds-*.log.
set -euo pipefail

if [ $# -lt 5 ] || [ "$4" != "--" ]; then
  echo "usage: $0 TREE_A TREE_B SUMMARY_PATTERN -- BENCH_FILE [ARGS...]" >&2
  exit 2
fi
tree_a=$(cd "$1" && pwd)
tree_b=$(cd "$2" && pwd)
pattern=$3
shift 4
if [ "$(nproc)" -lt 2 ]; then
  echo "$0: needs two cores" >&2
  exit 2
fi
logs=${TMPDIR:-/tmp}

for round in 1 2; do
  if [ "$round" = 1 ]; then core_a=0 core_b=1; else core_a=1 core_b=0; fi
  log_a="$logs/paired-builds-a-$round.log"
  log_b="$logs/paired-builds-b-$round.log"
  (cd "$tree_a" && taskset -c "$core_a" node -r ./tools/register.cjs "$@" >"$log_a" 2>&1) &
  pid_a=$!
  (cd "$tree_b" && taskset -c "$core_b" node -r ./tools/register.cjs "$@" >"$log_b" 2>&1) &
  pid_b=$!
  wait "$pid_a" "$pid_b"
  echo "round $round, A on core $core_a: $(grep -E "$pattern" "$log_a" | tr '\n' ' ')"
  echo "round $round, B on core $core_b: $(grep -E "$pattern" "$log_b" | tr '\n' ' ')"
done
