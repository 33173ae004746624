#!/usr/bin/env bash
# Checks formatting and documentation rules without changing files.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive --parallel Package.swift Modules Tests Apps Tooling
