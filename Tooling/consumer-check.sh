#!/usr/bin/env bash
# What a user who adds Cascade for one product gets: for each library product, a throw-away
# package that depends on this repository by git URL (this checkout, file://…, at HEAD, so only
# what is committed counts), depends on that product alone, resolves, builds from a cold build
# folder (the packages already fetched) and runs a few lines of it. Prints a table: product,
# packages resolved (their names), seconds to resolve, seconds of the cold build.
#
# Fails when a product resolves a package that no library module imports (an app's, a server's
# or a tool's dependency creeping back into the root manifest), when a consumer does not build,
# or when its lines do not print what they should.
#
# Usage: Tooling/consumer-check.sh [PRODUCT…]      (default: all six)
# Environment: CONSUMER_CHECK_DIR keeps the consumers in that folder instead of a temporary one.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$(pwd -P)"
command -v jq >/dev/null || { echo "consumer-check: needs jq" >&2; exit 2; }
revision="$(git rev-parse HEAD)"
# SwiftPM names a package by its URL's last component.
identity="$(basename "$repository" .git | tr '[:upper:]' '[:lower:]')"

products=("$@")
[ ${#products[@]} -gt 0 ] ||
  products=(CascadeStreams CascadeStore CascadeReactor CascadeFeedback CascadeMiddleware CascadeTesting)

if [ -n "${CONSUMER_CHECK_DIR:-}" ]; then
  work="$CONSUMER_CHECK_DIR"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/consumer-check.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi

# The packages the library modules import: the product dependencies of the targets that make up
# the library products (and the targets those depend on) — not those of a test target, nor of an
# executable or helper target, which a consumer would resolve all the same.
allowed="$(swift package dump-package | jq -r '
  (.targets | map({ key: .name, value: .dependencies }) | from_entries) as $targets
  | def closure($names):
      ($names + [$names[] as $n | ($targets[$n] // [])[] | (.byName // .target // empty)[0]]
        | unique) as $next
      | if ($next | length) == ($names | length) then $names else closure($next) end;
    closure([.products[] | select(.type | has("library")) | .targets[]] | unique)[] as $name
  | $targets[$name][] | .product? // empty | .[1]
  ' | tr '[:upper:]' '[:lower:]' | sort -u)"
echo "consumer-check: the library modules import: $(echo "$allowed" | paste -sd ' ' -)"

# A few lines per product: each prints what it did and exits non-zero if that was wrong.
consumer_source() {
  case "$1" in
    CascadeStreams)
      cat <<'SWIFT'
import CascadeStreams
import Synchronization

let numbers = PublishSubject<Int, Never>()
let seen = Mutex<[Int]>([])
let subscription = numbers.map { $0 * 10 }.filter { $0 > 10 }
  .subscribe(onNext: { number in seen.withLock { $0.append(number) } })
for number in 1...3 { numbers.onNext(number) }
subscription.dispose()
let values = seen.withLock { $0 }
print("CascadeStreams:", values)
guard values == [20, 30] else { fatalError("expected [20, 30]") }
SWIFT
      ;;
    CascadeStore)
      cat <<'SWIFT'
import CascadeStore

enum CounterAction: Sendable { case increment, add(Int) }

let store = Store(initialState: 0) { (count: inout Int, action: CounterAction) in
  switch action {
  case .increment: count += 1
  case .add(let amount): count += amount
  }
}
store.send(.increment)
store.send(.add(41))
await store.settle()
print("CascadeStore: count", store.currentState)
guard store.currentState == 42 else { fatalError("expected 42") }
SWIFT
      ;;
    CascadeReactor)
      cat <<'SWIFT'
import CascadeReactor

final class CounterReactor: Reactor {
  enum Action: Sendable { case increase }
  enum Mutation: Sendable { case increaseValue }
  struct State: Sendable, Equatable { var value = 0 }

  let initialState = State()
  let runtime = ReactorRuntime<Action, Mutation, State>()

  func mutate(action: Action) -> Mutations<Mutation> { .just(.increaseValue) }

  func reduce(into state: inout State, mutation: Mutation) { state.value += 1 }
}

let reactor = CounterReactor()
reactor.send(.increase)
reactor.send(.increase)
await reactor.settle()
print("CascadeReactor: value", reactor.currentState.value)
guard reactor.currentState.value == 2 else { fatalError("expected 2") }
SWIFT
      ;;
    CascadeFeedback)
      cat <<'SWIFT'
import CascadeFeedback

enum Event: Sendable { case tick }

let loop = FeedbackLoop(initial: 0, reduce: { (count: Int, _: Event) in count + 1 }, feedbacks: [])
loop.send(.tick)
loop.send(.tick)
loop.send(.tick)
await loop.settle()
print("CascadeFeedback: count", loop.currentState)
guard loop.currentState == 3 else { fatalError("expected 3") }
SWIFT
      ;;
    CascadeMiddleware)
      # The middlewares work with an architecture's store, which the product brings.
      cat <<'SWIFT'
import CascadeMiddleware
import CascadeStore

enum Action: String, Codable, Sendable { case increment }

let recorder = RecordingMiddleware<Action, Int>(buffer: RecordingBuffer())
let store = Store(initialState: 0, middlewares: [recorder]) { (count: inout Int, _: Action) in
  count += 1
}
store.send(.increment)
store.send(.increment)
await store.settle()
print("CascadeMiddleware: recorded", recorder.recordedCount, "inputs")
guard recorder.recordedCount == 2, store.currentState == 2 else { fatalError("expected 2") }
SWIFT
      ;;
    CascadeTesting)
      cat <<'SWIFT'
import CascadeTesting
import Synchronization

let scheduler = TestScheduler()
let fired = Mutex<[String]>([])
scheduler.schedule(after: .seconds(2)) { fired.withLock { $0.append("two") } }
scheduler.schedule(after: .seconds(1)) { fired.withLock { $0.append("one") } }
scheduler.advance(by: .seconds(1))
let afterOne = fired.withLock { $0 }
scheduler.advance(by: .seconds(1))
let afterTwo = fired.withLock { $0 }
print("CascadeTesting: after 1 s", afterOne, "after 2 s", afterTwo)
guard afterOne == ["one"], afterTwo == ["one", "two"] else { fatalError("wrong virtual time") }
SWIFT
      ;;
    *)
      echo "consumer-check: no such product: $1" >&2
      return 1
      ;;
  esac
}

failed=0
rows=()
for product in "${products[@]}"; do
  package="$work/$product"
  rm -rf "$package"
  mkdir -p "$package/Sources/Consumer"
  consumer_source "$product" >"$package/Sources/Consumer/main.swift" || exit 2
  cat >"$package/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "consumer",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(url: "file://$repository", revision: "$revision")
  ],
  targets: [
    .executableTarget(
      name: "Consumer",
      dependencies: [.product(name: "$product", package: "$identity")]
    )
  ],
  swiftLanguageModes: [.v6]
)
SWIFT
  log="$work/$product.log"
  start=$SECONDS
  if ! (cd "$package" && swift package resolve) >"$log" 2>&1; then
    cat "$log" >&2
    echo "consumer-check: $product: the package does not resolve" >&2
    failed=1
    continue
  fi
  resolve_seconds=$((SECONDS - start))
  resolved="$(jq -r '.pins[].identity' "$package/Package.resolved" | grep -vx "$identity" | sort)"
  names="$(echo "$resolved" | paste -sd ' ' -)"
  count="$(echo "$resolved" | grep -c . || true)"

  # Every package under Cascade's node must be one the library modules import, or one of theirs.
  direct="$(cd "$package" && swift package show-dependencies --format json 2>/dev/null |
    jq -r --arg id "$identity" '.. | objects | select(.identity? == $id) | .dependencies[].identity' |
    sort -u)"
  for dependency in $direct; do
    if ! grep -qx -- "$dependency" <<<"$allowed"; then
      echo "consumer-check: $product resolves $dependency, which no library module imports" >&2
      failed=1
    fi
  done

  start=$SECONDS
  if ! (cd "$package" && swift build) >>"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "consumer-check: $product: the consumer does not build" >&2
    failed=1
    continue
  fi
  build_seconds=$((SECONDS - start))
  if ! output="$(cd "$package" && .build/debug/Consumer 2>&1)"; then
    echo "$output" >&2
    echo "consumer-check: $product: the consumer's lines failed" >&2
    failed=1
    continue
  fi
  echo "consumer-check: $output"
  rows+=("| \`$product\` | $count | ${names:-none} | $resolve_seconds | $build_seconds |")
done

echo
echo "Consumers of one product (cold debug build, packages already fetched; $(nproc) cores):"
echo
echo "| Product | Packages resolved | Which | Resolve s | Cold build s |"
echo "| --- | --: | --- | --: | --: |"
printf '%s\n' "${rows[@]}"
exit "$failed"
