#!/usr/bin/env bash
# Builds each library module's DocC catalog with warnings as errors, so a broken symbol link or
# an undocumented curation entry fails. Usage: Tooling/docs.sh [Module ...]
set -euo pipefail
cd "$(dirname "$0")/.."
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  for catalog in Modules/*/*.docc; do modules+=("$(basename "$(dirname "$catalog")")"); done
fi
graphs="$(mktemp -d)"
output="$(mktemp -d)"
trap 'rm -rf "$graphs" "$output"' EXIT
for module in "${modules[@]}"; do
  # Extension blocks give pages to members added to other modules' types (CascadeTesting's
  # `Reactor.assertStates`), as swift-docc-plugin does by default.
  swift build --target "$module" --scratch-path .build-docs \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-extension-block-symbols \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all-$module" >/dev/null
  # Only this module's own graphs: its dependencies' (CustomDump's) have links of their own.
  mkdir -p "$graphs/$module"
  cp "$graphs/all-$module/$module".symbols.json "$graphs/$module/"
  cp "$graphs/all-$module/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
  docc convert "Modules/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "cascade.$module" \
    --warnings-as-errors \
    --output-path "$output/$module.doccarchive" >/dev/null
  echo "docs: $module ok"
done
