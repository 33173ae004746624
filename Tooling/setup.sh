#!/usr/bin/env bash
# Installs what the samples' package (Apps/) needs from the system and is missing: the SQLite
# headers (the Todo app's GRDB links the system SQLite) and a Chromium (the inspector's browser
# tests drive it headless). The libraries (the root package) need nothing of the system.
# On Debian and Ubuntu it installs them with apt-get (through sudo unless run as root); elsewhere
# it names what to install and exits 0, and the browser tests skip unless CI is set.
# Usage: Tooling/setup.sh
set -euo pipefail
packages=(libsqlite3-dev chromium)
if ! command -v dpkg >/dev/null 2>&1; then
  echo "setup: not a Debian system: install the SQLite headers and a Chromium for Apps/" >&2
  exit 0
fi
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "setup: installing ${missing[*]} (for the samples' package, Apps/)" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
