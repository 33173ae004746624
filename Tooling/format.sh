#!/usr/bin/env bash
# Formats the package in place with the toolchain's swift-format and the repository's .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive --parallel Package.swift Modules Tests Apps Tooling
