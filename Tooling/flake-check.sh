#!/usr/bin/env bash
# Proves the test suite does not depend on how fast the machine is: runs the README's test
# command (Tooling/test.sh: both packages, the libraries and Apps/) N times (default 5) while a
# CPU hog keeps every core busy, and prints each run's result and wall time, then the slowest
# tests of all runs.
#
# Usage: Tooling/flake-check.sh [N] [extra `swift test` arguments…]
#   Tooling/flake-check.sh 10
#   Tooling/flake-check.sh 3 --filter CascadeStoreTests
# Environment: HOG_PROCESSES (default: the number of cores) sets how many hogs run.
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
stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  hog_pids=()
}
trap stop_hogs EXIT INT TERM
for _ in $(seq "$hogs"); do
  yes >/dev/null &
  hog_pids+=("$!")
done
echo "flake-check: $runs run(s) of Tooling/test.sh with $hogs CPU hog(s) (pids ${hog_pids[*]}); logs in $logs"

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
  | sort -rn | head -15 | sed 's/^/    /' || true
echo "flake-check: $((runs - failed))/$runs passed"
[ "$failed" -eq 0 ]
