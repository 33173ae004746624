#!/usr/bin/env bash
# The README's test command: every test of both packages — the libraries (the root package),
# then the samples and their tools (Apps/, after Tooling/setup.sh installs what they need of the
# system). Arguments go to both `swift test` runs (`--skip-build`, `--filter X`, `--parallel`…).
# Exits non-zero if either fails; both run either way.
# The samples' tests run with the purity check on (CASCADE_PURITY_CHECK=1, issue 36): every
# reduction of every store, reactor and feedback loop they create runs twice from one state, and
# a sample reducer that is not pure fails its test.
# Usage: Tooling/test.sh [swift test arguments…]
set -euo pipefail
cd "$(dirname "$0")/.."
Tooling/setup.sh
status=0
echo "::: the libraries (Package.swift)"
swift test "$@" || status=1
echo "::: the samples and tools (Apps/Package.swift)"
CASCADE_PURITY_CHECK=1 swift test --package-path Apps "$@" || status=1
exit "$status"
