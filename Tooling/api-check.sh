#!/usr/bin/env bash
# The API stability gate: compares the public API of every library product with the last
# release and fails on a break that CHANGELOG.md does not announce.
#
# - The last release is recorded in Tooling/last-release as `VERSION COMMIT`. Its version must be
#   the newest release heading of CHANGELOG.md (`## 0.20.0 — …`) and `CascadeVersion.current`
#   (Modules/CascadeStreams/CascadeVersion.swift), the one place the version is written.
# - `swift package diagnose-api-breaking-changes COMMIT` lists the breaks (swift-api-digester,
#   from the toolchain). Each must be announced: its declaration's name (`Store.send(_:)` in
#   "API breakage: func Store.send(_:) has been removed") written in a "### Breaking changes"
#   list under "## Unreleased" in CHANGELOG.md.
#
# Usage: Tooling/api-check.sh [COMMIT]     (default: the commit in Tooling/last-release)
# Needs the history down to that commit (a shallow clone: `git fetch --unshallow`).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r released baseline <Tooling/last-release || true
baseline="${1:-$baseline}"
if [ -z "${released:-}" ] || [ -z "${baseline:-}" ]; then
  echo "api-check: Tooling/last-release must hold 'VERSION COMMIT'" >&2
  exit 2
fi
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null &&
  [ "$(git rev-parse --is-shallow-repository)" = "true" ]; then
  git fetch --quiet --unshallow 2>/dev/null || true
fi
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
  echo "api-check: the last release's commit $baseline is not in this clone (git fetch --unshallow)" >&2
  exit 2
fi

# The version, in its one place, is the last release's, and the changelog's newest release.
current="$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Modules/CascadeStreams/CascadeVersion.swift)"
newest="$(sed -n 's/^## \([0-9][0-9.]*\)\( .*\)\{0,1\}$/\1/p' CHANGELOG.md | head -1)"
if [ "$current" != "$released" ] || [ "$newest" != "$released" ]; then
  echo "api-check: the versions disagree: CascadeVersion.current $current, CHANGELOG.md's newest" \
    "release ${newest:-none}, Tooling/last-release $released" >&2
  exit 1
fi

# The "### Breaking changes" list of the "## Unreleased" section.
announced="$(awk '
  /^## / { unreleased = ($0 ~ /^## Unreleased/); breaking = 0; next }
  unreleased && /^### / { breaking = ($0 ~ /^### Breaking changes/); next }
  unreleased && breaking { print }
' CHANGELOG.md)"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift package diagnose-api-breaking-changes "$baseline" >"$log" 2>&1 || status=$?
breaks="$(grep -a -o 'API breakage: .*' "$log" | sed 's/^API breakage: //' | sort -u || true)"
if [ "$status" -ne 0 ] && [ -z "$breaks" ]; then
  tail -40 "$log" >&2
  echo "api-check: diagnose-api-breaking-changes failed (status $status) without naming a break" >&2
  exit 1
fi

unannounced=0
count=0
while IFS= read -r breakage; do
  [ -n "$breakage" ] || continue
  count=$((count + 1))
  # "func Store.send(_:) has been removed": the second word is the declaration's name.
  name="$(awk '{ print $2 }' <<<"$breakage")"
  if grep -qF -- "$name" <<<"$announced"; then
    echo "api-check: announced: $breakage"
  else
    echo "api-check: NOT ANNOUNCED: $breakage" >&2
    unannounced=$((unannounced + 1))
  fi
done <<<"$breaks"

if [ "$unannounced" -gt 0 ]; then
  echo "api-check: $unannounced of $count breaking changes since $released ($baseline) are not" \
    "in CHANGELOG.md's \"## Unreleased\" → \"### Breaking changes\" list; name each there" \
    "(its declaration, as above), or keep the old API beside the new one" >&2
  exit 1
fi
echo "api-check: the public API against $released ($baseline): $count breaking changes," \
  "all announced"
