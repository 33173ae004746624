#!/usr/bin/env bash
# Checks what each library module pulls in: a user who imports one module builds only what that
# module needs. CascadeStreams depends on nothing; the architectures (CascadeStore,
# CascadeReactor, CascadeFeedback) on no logging, metrics, database or app library; only
# CascadeMiddleware (the shipped middlewares) may use swift-log and swift-metrics, and the three
# architectures (its recordings replay into each), and only CascadeTesting swift-custom-dump. Reads the package graph with `swift package describe`.
# Usage: Tooling/check-dependencies.sh (exits non-zero, naming the offender, on a violation)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null || { echo "check-dependencies: needs jq" >&2; exit 2; }
graph="$(swift package describe --type json)"

# Everything `target` depends on, directly or not: targets by name, products as product:NAME.
closure() {
  jq -r --arg start "$1" '
    .targets as $targets
    | def deps($name): ($targets[] | select(.name == $name)) as $t
        | (($t.target_dependencies // [])[] as $d | $d, deps($d)),
          (($t.product_dependencies // [])[] | "product:" + .);
      [deps($start)] | unique | .[]' <<<"$graph"
}

failed=0
check() {
  local module="$1" allowed="$2"
  local found
  found="$(closure "$module" | tr '\n' ' ')"
  for dependency in $found; do
    if ! grep -qw -- "$dependency" <<<"$allowed"; then
      echo "check-dependencies: $module must not depend on $dependency" >&2
      failed=1
    fi
  done
  echo "$module: ${found:-nothing}"
}
architecture="CascadeStreams CascadeStore product:IssueReporting"
check CascadeStreams ""
check CascadeStore "$architecture"
check CascadeReactor "$architecture"
check CascadeFeedback "$architecture"
check CascadeMiddleware "$architecture CascadeReactor CascadeFeedback product:Logging \
  product:CoreMetrics"
check CascadeTesting "$architecture CascadeReactor CascadeFeedback product:CustomDump \
  product:IssueReportingTestSupport"
exit "$failed"
