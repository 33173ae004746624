// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live outside the main package graph (like swift-log's and Hummingbird's), so the
// library's users and CI never build them. Build and run in release mode:
//
//   cd Tooling/Benchmarks && swift build -c release && .build/release/cascade-benchmarks
//
// See README.md for the options and what each column means.

// MARK: - Settings

let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),  // SE-0335
  .enableUpcomingFeature("MemberImportVisibility"),  // SE-0444
  .enableUpcomingFeature("InternalImportsByDefault"),  // SE-0409
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),  // SE-0461
  .enableUpcomingFeature("InferIsolatedConformances"),  // SE-0470
]

let package = Package(
  name: "cascade-benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "cascade-benchmarks", targets: ["cascade-benchmarks"])
  ],
  dependencies: [
    // The root package, by path; `name:` pins its identity whatever the checkout's folder is
    // called.
    .package(name: "cascade", path: "../.."),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    // MARK: - Executables
    .executableTarget(
      name: "cascade-benchmarks",
      dependencies: [
        .product(name: "CascadeStreams", package: "cascade"),
        .product(name: "CascadeStore", package: "cascade"),
        .product(name: "CascadeReactor", package: "cascade"),
        .product(name: "CascadeFeedback", package: "cascade"),
        .product(name: "CascadeMiddleware", package: "cascade"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: settings
    )
  ],
  swiftLanguageModes: [.v6]
)
