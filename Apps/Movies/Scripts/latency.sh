#!/usr/bin/env bash
# The time of one page of the movies catalog on loopback: curl against the app, same server.
#
# Starts `movies serve` on a free port, then pages through the whole catalog ROUNDS times
# with curl (one process a round, the connection kept from page to page) and with
# `movies bench` (the app's paging service and its HTTP client alone, the connection kept
# too), and prints the median milliseconds per page of each, and the app's over curl's.
#
#   swift build --package-path Apps -c release --product movies
#   Apps/Movies/Scripts/latency.sh [ROUNDS]          # default 20; MOVIES=path/to/movies to choose
#
# The goal is a page within twice curl's time; the last lines say whether the app and its HTTP
# client alone meet it.
set -euo pipefail

rounds="${1:-20}"
movies="${MOVIES:-Apps/.build/release/movies}"
[[ -x "$movies" ]] || { echo "no $movies: swift build --package-path Apps -c release --product movies" >&2; exit 66; }
command -v curl >/dev/null || { echo "curl is needed" >&2; exit 69; }

scratch="$(mktemp -d)"
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

"$movies" serve --port 0 >"$scratch/serve.out" 2>&1 &
server=$!
for _ in $(seq 100); do
  grep -q '^Serving' "$scratch/serve.out" 2>/dev/null && break
  sleep 0.1
done
base="$(sed -n 's|.* at \(http://[^/]*\)/discover.*|\1|p' "$scratch/serve.out")"
pages="$(sed -n 's|.*(\([0-9]*\) pages).*|\1|p' "$scratch/serve.out")"
[[ -n "$base" && -n "$pages" ]] || { echo "the server did not start" >&2; exit 75; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

args=()
for page in $(seq "$pages"); do
  args+=(-o /dev/null "$base/discover/movie?page=$page")
done
for _ in $(seq "$rounds"); do
  curl -s -w '%{time_total}\n' "${args[@]}"
done | awk '{ printf "%.3f\n", $1 * 1000 }' >"$scratch/curl.ms"
curl_ms="$(median <"$scratch/curl.ms")"

"$movies" bench --api "$base" --rounds "$rounds" | tee "$scratch/bench.md"
default="$("$movies" list --help | sed -n 's/.*(default: \([a-z-]*\))\..*/\1/p' | head -1)"
median_of() {
  awk -F'|' -v t=" $default " -v p="$1" '$2 == t && index($3, p) { gsub(/ /, "", $5); print $5 }' \
    "$scratch/bench.md"
}

echo
echo "curl: median $curl_ms ms per page ($((rounds * pages)) pages, keep-alive)"
for path in "app" "client alone"; do
  awk -v a="$(median_of "$path")" -v c="$curl_ms" -v p="$path" -v t="$default" 'BEGIN {
    r = a / c
    printf "%s through %s: median %.3f ms per page, %.2f × curl (goal ≤ 2: %s)\n", \
      p, t, a, r, (r <= 2) ? "met" : "not met"
  }'
done
