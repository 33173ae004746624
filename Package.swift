// swift-tools-version: 6.2
import PackageDescription

// MARK: - Settings

let settings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),  // SE-0335
  .enableUpcomingFeature("MemberImportVisibility"),  // SE-0444
  .enableUpcomingFeature("InternalImportsByDefault"),  // SE-0409
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),  // SE-0461
  .enableUpcomingFeature("InferIsolatedConformances"),  // SE-0470
]

/// CI turns every warning into an error through the manifest, so a warning never lands.
let ci: [SwiftSetting] = Context.environment["CI"] != nil ? [.treatAllWarnings(as: .error)] : []

let package = Package(
  name: "cascade",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "CascadeStreams", targets: ["CascadeStreams"]),
    .library(name: "CascadeMiddleware", targets: ["CascadeMiddleware"]),
    .library(name: "CascadeStore", targets: ["CascadeStore"]),
    .library(name: "CascadeReactor", targets: ["CascadeReactor"]),
    .library(name: "CascadeFeedback", targets: ["CascadeFeedback"]),
    .library(name: "CascadeTesting", targets: ["CascadeTesting"]),
  ],
  dependencies: [
    // What the library modules import: CascadeMiddleware's logging and metrics middlewares, and
    // the issue reporting and diffing of CascadeStore and CascadeTesting.
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // Test targets only: SwiftPM does not resolve these for a package that depends on Cascade.
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // MARK: - Modules
    .target(
      name: "CascadeStreams",
      path: "Modules/CascadeStreams"
    ),
    .target(
      name: "CascadeMiddleware",
      dependencies: [
        "CascadeStreams",
        "CascadeStore",
        // Recordings replay into each architecture (`Recording.replay(into:)`).
        "CascadeReactor",
        "CascadeFeedback",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
      ],
      path: "Modules/CascadeMiddleware"
    ),
    .target(
      name: "CascadeStore",
      dependencies: [
        "CascadeStreams",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Modules/CascadeStore"
    ),
    .target(
      name: "CascadeReactor",
      dependencies: ["CascadeStreams", "CascadeStore"],
      path: "Modules/CascadeReactor"
    ),
    .target(
      name: "CascadeFeedback",
      dependencies: ["CascadeStreams", "CascadeStore"],
      path: "Modules/CascadeFeedback"
    ),
    .target(
      name: "CascadeTesting",
      dependencies: [
        "CascadeStreams",
        "CascadeStore",
        "CascadeReactor",
        "CascadeFeedback",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // CascadeTesting is only linked into tests: it brings the support that lets
        // `reportIssue` record Swift Testing and XCTest failures, so test targets need not.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      path: "Modules/CascadeTesting"
    ),

    // MARK: - Tests
    .target(
      name: "CascadeTestSupport",
      dependencies: ["CascadeStreams"],
      path: "Tests/CascadeTestSupport"
    ),
    .testTarget(
      name: "CascadeStreamsTests",
      dependencies: [
        "CascadeStreams",
        "CascadeTesting",
        "CascadeTestSupport",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
    .testTarget(
      name: "CascadeMiddlewareTests",
      dependencies: [
        "CascadeStreams",
        "CascadeMiddleware",
        "CascadeStore",
        "CascadeReactor",
        "CascadeFeedback",
        "CascadeTesting",
        "CascadeTestSupport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "CascadeStoreTests",
      dependencies: [
        "CascadeStreams",
        "CascadeStore",
        "CascadeMiddleware",
        "CascadeTesting",
        "CascadeTestSupport",
      ]
    ),
    .testTarget(
      name: "CascadeReactorTests",
      dependencies: [
        "CascadeStore",
        "CascadeStreams",
        "CascadeReactor",
        "CascadeMiddleware",
        "CascadeTesting",
        "CascadeTestSupport",
      ]
    ),
    .testTarget(
      name: "CascadeFeedbackTests",
      dependencies: [
        "CascadeStore",
        "CascadeStreams",
        "CascadeFeedback",
        "CascadeMiddleware",
        "CascadeTesting",
        "CascadeTestSupport",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "CascadeStore",
        "CascadeReactor",
        "CascadeFeedback",
        "CascadeStreams",
        "CascadeMiddleware",
        "CascadeTesting",
        "CascadeTestSupport",
      ]
    ),
    .testTarget(
      name: "SeedExampleTests",
      dependencies: [
        "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback", "CascadeMiddleware",
        "CascadeTesting", "CascadeTestSupport",
      ]
    ),
    .testTarget(
      name: "CascadeTestingTests",
      dependencies: [
        "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback", "CascadeTesting",
        "CascadeTestSupport",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable, .test].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + settings + ci
}
