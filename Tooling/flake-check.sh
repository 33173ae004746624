#!/usr/bin/env bash
# Proves the test suite does not depend on how fast the machine is: runs the README's test
# command (Tooling/test.sh: both packages, the libraries and Apps/) N times (default 5) on a
# machine kept as busy as a developer's that is also compiling: a CPU hog on every core, and a
# release build of another package (Tooling/Benchmarks, in a scratch folder of its own) started
# again from clean each time it ends, for as long as the runs last. It prints each run's result
# and wall time, then the slowest tests of all runs.
#
# Usage: Tooling/flake-check.sh [N] [extra `swift test` arguments…]
#   Tooling/flake-check.sh 10
#   Tooling/flake-check.sh 3 --filter CascadeStoreTests
# Environment: HOG_PROCESSES (default: the number of cores) sets how many hogs run;
# BUILD_LOAD=0 leaves the concurrent build out; BUILD_LOAD_KEEP=DIR makes the load's first build
# go to DIR and be kept there (not cleaned, whether it ends or is stopped with the runs), so that
# a later `swift build -c release --package-path Tooling/Benchmarks --scratch-path DIR` (CI's
# benchmarks step) finishes it instead of starting over; the builds after it go to the scratch
# folder of their own, from clean.
# Exits non-zero if any run failed; the logs stay in the printed folder.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
shift || true
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "flake-check: N must be a positive whole number, not '$runs'" >&2
  exit 2
fi
cores="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
hogs="${HOG_PROCESSES:-$cores}"
logs="$(mktemp -d "${TMPDIR:-/tmp}/flake-check.XXXXXX")"

# Build first, without the hog, so each run measures the tests and not the compiler.
Tooling/setup.sh
{ swift build --build-tests && swift build --build-tests --package-path Apps; } \
  >"$logs/build.log" 2>&1 || {
  cat "$logs/build.log" >&2
  exit 1
}

hog_pids=()
build_group=""
stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  hog_pids=()
  if [ -n "$build_group" ]; then
    # The loop and the compiler processes it started: a process group of their own.
    kill -TERM -- "-$build_group" 2>/dev/null || true
    wait "$build_group" 2>/dev/null || true
    build_group=""
  fi
}
trap stop_hogs EXIT INT TERM
for _ in $(seq "$hogs"); do
  yes >/dev/null &
  hog_pids+=("$!")
done
load="$hogs CPU hog(s) (pids ${hog_pids[*]})"
if [ "${BUILD_LOAD:-1}" != 0 ]; then
  # `setsid` makes the loop a process group's leader, so that stopping it stops its compilers.
  setsid bash -c '
    if [ -n "$2" ]; then
      swift build -c release --package-path Tooling/Benchmarks --scratch-path "$2" || sleep 5
    fi
    while true; do
      swift package --package-path Tooling/Benchmarks --scratch-path "$1" clean || true
      swift build -c release --package-path Tooling/Benchmarks --scratch-path "$1" || sleep 5
    done
  ' build-load "$logs/build-load" "${BUILD_LOAD_KEEP:-}" >"$logs/build-load.log" 2>&1 &
  build_group=$!
  load="$load and a build of Tooling/Benchmarks (pid $build_group)"
fi
echo "flake-check: $runs run(s) of Tooling/test.sh with $load; logs in $logs"

failed=0
for run in $(seq "$runs"); do
  log="$logs/run-$run.log"
  start=$SECONDS
  if Tooling/test.sh --skip-build "$@" >"$log" 2>&1; then
    result="passed"
  else
    result="FAILED"
    failed=$((failed + 1))
  fi
  summary="$(grep -a -E '^. Test run with' "$log" | paste -sd ';' - || true)"
  echo "run $run/$runs: $result in $((SECONDS - start)) s — ${summary:-no summary (see $log)}"
  if [ "$result" = "FAILED" ]; then
    grep -a -E '✘ (Test|Suite)|error:|Fatal error' "$log" | head -20 | sed 's/^/    /' || true
  fi
done
stop_hogs

echo "slowest tests (longest of any run):"
cat "$logs"/run-*.log \
  | grep -a -E '^✔ Test .* passed after [0-9.]+ seconds' \
  | sed -E 's/^✔ Test (.*) passed after ([0-9.]+) seconds.*/\2\t\1/' \
  | awk -F'\t' '$1 + 0 > max[$2] + 0 { max[$2] = $1 } END { for (t in max) printf "%8.3f s  %s\n", max[t], t }' \
  | sort -rn | head -10 | sed 's/^/    /' || true
echo "flake-check: $((runs - failed))/$runs passed"
[ "$failed" -eq 0 ]
