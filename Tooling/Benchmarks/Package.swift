// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live outside the main package graph (like swift-log's and Hummingbird's), so the
// library's users and CI's main build never build them. They run on ordo-one/benchmark:
//
//   cd Tooling/Benchmarks && swift package benchmark
//
// See README.md for the filters, the side-by-side report (`cascade-report`), the allocation gate
// and `cascade-cell` (one cell alone, for callgrind and other profilers).

// MARK: - Settings

let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),  // SE-0335
  .enableUpcomingFeature("MemberImportVisibility"),  // SE-0444
  .enableUpcomingFeature("InternalImportsByDefault"),  // SE-0409
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),  // SE-0461
  .enableUpcomingFeature("InferIsolatedConformances"),  // SE-0470
]

/// CI turns every warning into an error through the manifest, as the root package does.
let ci: [SwiftSetting] = Context.environment["CI"] != nil ? [.treatAllWarnings(as: .error)] : []

let package = Package(
  name: "cascade-benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "cascade-cell", targets: ["cascade-cell"]),
    .executable(name: "cascade-report", targets: ["cascade-report"]),
  ],
  dependencies: [
    // The root package, by path; `name:` pins its identity whatever the checkout's folder is
    // called.
    .package(name: "cascade", path: "../.."),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // Its malloc counters (mallocCountTotal) come from the interposer trait; naming the trait
    // also leaves out the default Swift 6.3 runtime interposer, which is not needed here.
    .package(
      url: "https://github.com/ordo-one/benchmark",
      from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
  ],
  targets: [
    // MARK: - Workloads
    // The cells of BENCHMARKS.md's workloads, each checked when it runs; both executables and
    // the benchmarks run them.
    .target(
      name: "CascadeWorkloads",
      dependencies: [
        .product(name: "CascadeStreams", package: "cascade"),
        .product(name: "CascadeStore", package: "cascade"),
        .product(name: "CascadeReactor", package: "cascade"),
        .product(name: "CascadeFeedback", package: "cascade"),
        .product(name: "CascadeMiddleware", package: "cascade"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),

    // MARK: - Benchmarks
    // `swift package benchmark` runs every executable target under Benchmarks/.
    .executableTarget(
      name: "CascadeBenchmarks",
      dependencies: [
        "CascadeWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/CascadeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),

    // MARK: - Executables
    // One cell alone, without the benchmark tool: what Tooling/callgrind.sh runs under valgrind.
    .executableTarget(name: "cascade-cell", dependencies: ["CascadeWorkloads"]),
    // The side-by-side table, the allocations per action and their gate, from the benchmarks'
    // results.
    .executableTarget(
      name: "cascade-report",
      dependencies: [
        "CascadeWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + settings + ci
}
