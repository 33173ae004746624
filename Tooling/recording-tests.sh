#!/usr/bin/env bash
# Makes the tests generated from the samples' recordings again (issue 36): for each recording
# in Apps/Tests/Recordings/<app>-<command>-<architecture>.jsonl, `cascade-inspect FILE
# --export-test OUT.swift` writes Apps/Tests/<Target>/Recorded/<Prefix><Architecture>RecordingTests.swift,
# a Swift Testing file that replays it through the exhaustive TestStore. Run it after changing
# the generator or an app's types. `Tooling/recording-tests.sh check` makes them and fails if
# that changed any (CI runs it, as a step of its own rather than a test in the samples' suite:
# replaying nine recordings keeps the test process's threads busy, and the flake check's load
# made the Movies tests' in-process servers answer late beside it).
#
# `Tooling/recording-tests.sh mutants` proves that those tests find a changed reducer, on the
# exact step: for each line of Apps/Tests/Recordings/mutants.tsv (a file, a line number, the text
# on it, what replaces it, and the generated suites with the record each must first fail on, as
# `Suite=record …`), it checks the line still reads so, changes it, builds the samples' tests,
# runs those suites, and requires that each one's first issue is on the line of its test that
# ends `// #<record>`, with the state's difference; then it puts the line back (also when
# stopped) and builds again.
# Usage: Tooling/recording-tests.sh [check|mutants]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = check ]; then
  "$0"
  if ! git diff --exit-code --stat -- Apps/Tests/*/Recorded/ \
    || [ -n "$(git ls-files --others --exclude-standard -- Apps/Tests/*/Recorded/)" ]; then
    echo "recording-tests: the generated tests are not what the recordings make today:" \
      "run Tooling/recording-tests.sh and commit them" >&2
    exit 1
  fi
  echo "recording-tests: the generated tests are current"
  exit 0
fi
if [ "${1:-}" = mutants ]; then
  status=0
  # The file as it was before the change (not git's copy: it may hold work not committed yet).
  restore=""
  backup="$(mktemp)"
  trap '[ -z "$restore" ] || cp "$backup" "$restore"; rm -f "$backup"' EXIT
  while IFS=$'\t' read -r file line text replacement expected; do
    case "$file" in '#'* | '') continue ;; esac
    if [ "$(sed -n "${line}p" "$file")" != "$text" ]; then
      echo "mutants: $file:$line no longer reads: $text" >&2
      exit 1
    fi
    cp "$file" "$backup"
    restore="$file"
    python3 - "$file" "$line" "$replacement" <<'PY'
import sys
path, number, replacement = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().split("\n")
lines[number - 1] = replacement
open(path, "w").write("\n".join(lines))
PY
    swift build --build-tests --package-path Apps >/dev/null 2>&1 || swift build --build-tests --package-path Apps
    filter="$(tr ' ' '\n' <<<"$expected" | sed 's/=.*//' | paste -sd '|')"
    output="$(swift test --skip-build --package-path Apps --filter "$filter" 2>&1 || true)"
    cp "$backup" "$file"
    restore=""
    for pair in $expected; do
      suite="${pair%%=*}"
      record="${pair##*=}"
      # The suite's first issue: "recorded an issue at <Suite>.swift:<line>:<column>".
      first="$(grep -o "recorded an issue at $suite.swift:[0-9]*" <<<"$output" | head -1 || true)"
      failing="$(sed -n "${first##*:}p" "$(find Apps/Tests -path "*/Recorded/$suite.swift")")"
      if [ -n "$first" ] && [[ "$failing" == *"// #$record" ]] \
        && grep -q "does not match the expectation" <<<"$output" \
        && grep -q "(Expected: -, Actual: +)" <<<"$output"; then
        echo "ok: $file:$line changed: $suite fails first on record #$record, with the difference"
      else
        echo "FAILED: $file:$line changed: $suite did not fail first on record #$record" \
          "(${first:-no issue}: ${failing:-})" >&2
        status=1
      fi
    done
  done <Apps/Tests/Recordings/mutants.tsv
  swift build --build-tests --package-path Apps >/dev/null 2>&1 || swift build --build-tests --package-path Apps
  exit "$status"
fi
swift build --package-path Apps --product cascade-inspect
inspect="$(swift build --package-path Apps --show-bin-path)/cascade-inspect"
# app command target prefix
while read -r app command target prefix; do
  for architecture in store reactor feedback; do
    recording="Apps/Tests/Recordings/$app-$command-$architecture.jsonl"
    [ -f "$recording" ] || continue
    suite="$prefix$(tr '[:lower:]' '[:upper:]' <<<"${architecture:0:1}")${architecture:1}RecordingTests"
    mkdir -p "Apps/Tests/$target/Recorded"
    "$inspect" "$recording" --export-test "Apps/Tests/$target/Recorded/$suite.swift"
    echo "Apps/Tests/$target/Recorded/$suite.swift"
  done
done <<'LIST'
rpg play RPGTests RPGPlay
movies browse MoviesTests MoviesBrowse
todo shell TodoTests TodoShell
LIST
