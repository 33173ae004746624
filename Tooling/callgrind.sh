#!/usr/bin/env bash
# Counts the instructions per operation of the benchmarks' W1 (counter dispatch), W3 (large state)
# and W6b (operators on a subject) cells, one cell per architecture and variant, with valgrind's
# callgrind. Instruction counts hardly move between runs on a shared machine, where timings drift
# by ±10–30%: use them to compare a change with the commit before it. Prints a Markdown table.
#
# Usage: Tooling/callgrind.sh [--n N] [--workloads IDS] [--scratch-path DIR] [--no-build] [--keep]
#   Tooling/callgrind.sh
#   Tooling/callgrind.sh --scratch-path .build-bench/benchmarks --n 50000
#   --n N              operations of the shorter runs (default 100000; the longer ones run 2N)
#   --workloads IDS    workload ids, as cascade-cell's --filter takes them (default W1,W3,W6b)
#   --scratch-path DIR the benchmarks' build folder (default Tooling/Benchmarks/.build)
#   --no-build         use the release build already in the scratch path
#   --keep             keep the callgrind files and logs (printed folder) for callgrind_annotate
#   --baseline FILE    compare with FILE (lines "cell<TAB>instructions/op", as --write-baseline
#                      writes them) and exit 1 if a cell costs more than its baseline plus the
#                      tolerance, or a cell of the baseline is missing: the gate CI runs
#   --tolerance PCT    how much more than its baseline a cell may cost (default 15, the budget
#                      issue 18 sets; instruction counts hardly move, so this is room for
#                      deliberate small costs, not noise)
#   --write-baseline FILE  write the counts to FILE, to commit as the new baseline
# Environment: BENCHMARKS_SCRATCH_PATH sets the scratch path (the flag wins); TMPDIR where the
# callgrind files go (removed at the end unless --keep).
#
# Method: each cell (`cascade-cell --list`, the benchmarks' cells run alone, outside the
# benchmark tool) runs alone (`--cell`, so no W0 and no other cell) under callgrind four times:
# N and 2N operations, each with 1 and 2 runs after the warm-up (`--runs`). A process also does
# work that does not belong to the operations: its start, the warm-up run (which runs the same N,
# so it scales with N too), the expected checksum (W3 computes it with N toggles), each run's
# setup (W3 builds 10,000 items). Two runs minus one run is one run, setup included; that at 2N
# minus that at N is N operations and nothing else:
#   instructions/op = (Ir(2N, 2 runs) − Ir(2N, 1 run) − Ir(N, 2 runs) + Ir(N, 1 run)) / N
# Runs with SWIFT_DETERMINISTIC_HASHING=1 so that hashing does not vary between processes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
package="$root/Tooling/Benchmarks"
scratch="${BENCHMARKS_SCRATCH_PATH:-$package/.build}"
n=100000
workloads="W1,W3,W6b"
build=1
keep=0
baseline=""
tolerance=15
write_baseline=""

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
needs_value() {
  if [ $# -lt 2 ] || [ -z "$2" ]; then
    echo "callgrind: $1 needs a value" >&2
    exit 2
  fi
}
while [ $# -gt 0 ]; do
  case "$1" in
    --n) needs_value "$@"; n="$2"; shift 2 ;;
    --n=*) n="${1#*=}"; shift ;;
    --workloads) needs_value "$@"; workloads="$2"; shift 2 ;;
    --workloads=*) workloads="${1#*=}"; shift ;;
    --scratch-path) needs_value "$@"; scratch="$2"; shift 2 ;;
    --scratch-path=*) scratch="${1#*=}"; shift ;;
    --no-build) build=0; shift ;;
    --keep) keep=1; shift ;;
    --baseline) needs_value "$@"; baseline="$2"; shift 2 ;;
    --tolerance) needs_value "$@"; tolerance="$2"; shift 2 ;;
    --write-baseline) needs_value "$@"; write_baseline="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "callgrind: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
  echo "callgrind: --n must be a positive whole number, not '$n'" >&2
  exit 2
fi
if ! [[ "$tolerance" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "callgrind: --tolerance must be a percentage, not '$tolerance'" >&2
  exit 2
fi
if [ -n "$baseline" ] && ! [ -r "$baseline" ]; then
  echo "callgrind: cannot read the baseline '$baseline'" >&2
  exit 2
fi
if ! command -v valgrind >/dev/null; then
  echo "callgrind: valgrind is not installed" >&2
  exit 1
fi
case "$scratch" in /*) ;; *) scratch="$PWD/$scratch" ;; esac

work="$(mktemp -d "${TMPDIR:-/tmp}/callgrind.XXXXXX")"
if [ "$keep" = 1 ]; then
  echo "callgrind: files in $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi

build_flags=(-c release --package-path "$package" --scratch-path "$scratch")
if [ "$build" = 1 ]; then
  echo "callgrind: building the benchmarks (release, $scratch)…" >&2
  swift build "${build_flags[@]}" --product cascade-cell >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    exit 1
  }
fi
binary="$(swift build "${build_flags[@]}" --show-bin-path)/cascade-cell"
if ! [ -x "$binary" ]; then
  echo "callgrind: no $binary; build it or drop --no-build" >&2
  exit 1
fi

# The cells of the workloads, except W0 (which --filter always adds).
cells=()
while IFS= read -r cell; do
  case "$cell" in "W0 "*) ;; *) cells+=("$cell") ;; esac
done < <("$binary" --list --filter "$workloads")
if [ ${#cells[@]} -eq 0 ]; then
  echo "callgrind: no cell in workloads '$workloads'" >&2
  exit 1
fi

# instructions INDEX CELL N RUNS: the instructions callgrind counted in a run of the harness.
instructions() {
  local file="$work/cell$1-n$3-runs$4"
  if ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
    --callgrind-out-file="$file.callgrind" \
    "$binary" --cell "$2" --n "$3" --runs "$4" >"$file.log" 2>&1; then
    echo "callgrind: '$2' failed with --n $3 --runs $4:" >&2
    tail -20 "$file.log" >&2
    return 1
  fi
  awk '/^summary:/ { print $2 }' "$file.callgrind"
}

start=$SECONDS
rows=()
counts=()
for index in "${!cells[@]}"; do
  cell="${cells[$index]}"
  echo "callgrind: $cell ($((index + 1))/${#cells[@]})…" >&2
  short1="$(instructions "$index" "$cell" "$n" 1)"
  short2="$(instructions "$index" "$cell" "$n" 2)"
  long1="$(instructions "$index" "$cell" $((2 * n)) 1)"
  long2="$(instructions "$index" "$cell" $((2 * n)) 2)"
  per_operation="$(
    awk -v a="$long2" -v b="$long1" -v c="$short2" -v d="$short1" -v n="$n" \
      'BEGIN { printf "%.1f", ((a - b) - (c - d)) / n }'
  )"
  rows+=("| ${cell%% *} | ${cell#* } | $per_operation |")
  counts+=("$cell"$'\t'"$per_operation")
done

commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit, modified"
fi
echo "| workload | architecture | instructions/op |"
echo "| --- | --- | ---: |"
printf '%s\n' "${rows[@]}"
echo
echo "callgrind Ir per operation, (Ir(2N, 2 runs) − Ir(2N, 1 run) − Ir(N, 2 runs) + Ir(N, 1 run)) / N"
echo "with N = $n; release build at $commit; $((SECONDS - start)) s under callgrind."

if [ -n "$write_baseline" ]; then
  printf '%s\n' "${counts[@]}" >"$write_baseline"
  echo "callgrind: baseline written to $write_baseline" >&2
fi
if [ -n "$baseline" ]; then
  echo
  echo "Against $baseline (tolerance +$tolerance%):"
  if ! printf '%s\n' "${counts[@]}" | awk -F '\t' -v tolerance="$tolerance" '
    NR == FNR { base[$1] = $2; order[++cells] = $1; next }
    { now[$1] = $2 }
    END {
      failed = 0
      for (i = 1; i <= cells; i++) {
        cell = order[i]
        if (!(cell in now)) { printf "  MISSING  %s (baseline %s)\n", cell, base[cell]; failed = 1; continue }
        limit = base[cell] * (1 + tolerance / 100)
        change = (now[cell] - base[cell]) / base[cell] * 100
        verdict = now[cell] > limit ? "OVER" : "ok"
        if (now[cell] > limit) failed = 1
        printf "  %-4s %s: %s (baseline %s, %+.1f%%)\n", verdict, cell, now[cell], base[cell], change
      }
      exit failed
    }' "$baseline" -; then
    echo "callgrind: a cell costs more instructions than its baseline allows" >&2
    exit 1
  fi
fi
