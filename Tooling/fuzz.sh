#!/usr/bin/env bash
# Builds the sample apps' fuzz targets (Tooling/Fuzz: one per reader of outside data) with
# libFuzzer and AddressSanitizer, and runs each for a bounded time on a copy of its seed corpus
# (Tooling/Fuzz/Corpus/<target>/; the committed corpus is never written to), one target per core
# at a time (CASCADE_FUZZ_JOBS to choose).
#
#   Tooling/fuzz.sh [seconds-per-target]     # default 60
#
# Prints each target's executions and coverage. Fails (status 1) if a target traps, leaks, runs
# over its time per input (-timeout) or its memory (-rss_limit_mb): the input that did it is
# kept under Tooling/Fuzz/.build/artifacts/ and its path printed. CASCADE_FUZZ_FLAGS adds
# libFuzzer flags of one's own (e.g. `-only_ascii=1`), after the script's.
set -euo pipefail

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: Tooling/fuzz.sh [seconds-per-target]" >&2
  exit 64
fi

root=$(cd "$(dirname "$0")/.." && pwd)
package=$root/Tooling/Fuzz
scratch=$package/.build
targets=(
  fuzz-recording
  fuzz-inspector
  fuzz-rpg-save
  fuzz-movies-page
  fuzz-movies-catalog
  fuzz-todo-import
  fuzz-command-line
)

build=(swift build --package-path "$package" --scratch-path "$scratch"
  -Xswiftc -sanitize=fuzzer,address)
start=$SECONDS
"${build[@]}"
bin=$("${build[@]}" --show-bin-path)
echo "fuzz: built in $((SECONDS - start)) s"

work=$(mktemp -d "${TMPDIR:-/tmp}/cascade-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
artifacts=$scratch/artifacts/$(date -u +%Y%m%dT%H%M%SZ)

# LeakSanitizer stays on with no suppressions: the Swift runtime's caches (type metadata,
# conformances) stay reachable and are not reported, while an object an input leaves unreachable
# (a retain cycle) is — both checked when this script was written.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}

# One target: runs it on a copy of its corpus, and leaves its log and exit status in $work.
fuzz_one() {
  local target=$1
  local corpus=$work/corpus/$target
  mkdir -p "$corpus" "$work/tmp/$target" "$artifacts/$target"
  cp -R "$package/Corpus/$target/." "$corpus/"
  local options=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -detect_leaks=1
    -print_final_stats=1 -artifact_prefix="$artifacts/$target/")
  local dictionary=$package/Dictionaries/$target.dict
  if [[ -f $dictionary ]]; then options+=(-dict="$dictionary"); fi
  local extra
  read -r -a extra <<<"${CASCADE_FUZZ_FLAGS:-}"
  options+=("${extra[@]}")
  local status=0
  # The readers that take a path read the input from a file under TMPDIR (FuzzSupport).
  TMPDIR=$work/tmp/$target "$bin/$target" "${options[@]}" "$corpus" >"$work/$target.log" 2>&1 \
    || status=$?
  echo "$status" >"$work/$target.status"
}

# The targets run side by side, one per core (libFuzzer's process uses one): each still gets
# its full time. CASCADE_FUZZ_JOBS sets how many at once.
jobs=${CASCADE_FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then jobs=1; fi
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait

failed=()
for target in "${targets[@]}"; do
  log=$work/$target.log
  status=$(cat "$work/$target.status" 2>/dev/null || echo "no status")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+' "$log" | tail -1 || true)
  echo "$target: ${runs:-?} executions in ${seconds} s, ${coverage:-no coverage line}"
  if [[ $status != 0 ]]; then
    failed+=("$target")
    echo "$target: FAILED (status $status):"
    { grep -E 'ERROR: |SUMMARY: |Fatal error|Test unit written to|==[0-9]+==' "$log" || true; } \
      | head -20 | sed 's/^/  /'
    cp "$log" "$artifacts/$target/log.txt"
    echo "  log: $artifacts/$target/log.txt; input(s): $(ls -d "$artifacts/$target"/*-* 2>/dev/null | tr '\n' ' ')"
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz: ${failed[*]} failed" >&2
  exit 1
fi
rm -rf "$artifacts"
echo "fuzz: no failure in ${#targets[@]} targets, ${seconds} s each ($((SECONDS - start)) s in all)"
