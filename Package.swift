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
    .executable(name: "movies", targets: ["movies"]),
    .executable(name: "todo", targets: ["todo"]),
    .executable(name: "rpg", targets: ["rpg"]),
    .executable(name: "cascade-compare", targets: ["CascadeCompare"]),
    .executable(name: "cascade-inspect", targets: ["CascadeInspect"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // The movies app's HTTP client on Linux (Foundation's URLSession on Apple platforms).
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // `cascade-inspect --live`'s WebSocket client (the apps' endpoints serve with FlyingFox).
    .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
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

    // MARK: - Apps

    .target(
      name: "AppSupport",
      dependencies: [
        "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback",
        // Sessions are recorded with its RecordingMiddleware and read back as its Recordings.
        "CascadeMiddleware",
      ],
      path: "Apps/AppSupport"
    ),
    .target(
      name: "CommandLineSupport",
      dependencies: [
        "AppSupport", "InspectorLink",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Apps/CommandLineSupport"
    ),
    .target(
      name: "MoviesCore",
      dependencies: [
        "AppSupport", "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback",
        "CascadeMiddleware", "InspectorLink",
        // Linux's HTTP transport: URLSession there costs about twice curl's time per page.
        .product(
          name: "AsyncHTTPClient",
          package: "async-http-client",
          condition: .when(platforms: [.linux])
        ),
        .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
      ],
      path: "Apps/Movies/MoviesCore"
    ),
    .target(
      name: "MoviesServer",
      dependencies: [
        "AppSupport", "CascadeStreams", "MoviesCore",
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Apps/Movies/MoviesServer",
      resources: [.copy("Resources/catalog.json")]
    ),
    .executableTarget(
      name: "movies",
      dependencies: [
        "AppSupport", "CascadeStreams", "CommandLineSupport", "MoviesCore", "MoviesServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Apps/Movies/movies"
    ),
    .target(
      name: "TodoCore",
      dependencies: [
        "AppSupport",
        "CascadeStreams",
        "CascadeStore",
        "CascadeReactor",
        "CascadeFeedback",
        "CascadeMiddleware",
        "InspectorLink",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Apps/Todo/TodoCore"
    ),
    .executableTarget(
      name: "todo",
      dependencies: [
        "AppSupport",
        "CommandLineSupport",
        "InspectorLink",
        "TodoCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Apps/Todo/todo"
    ),
    .target(
      name: "RPGCore",
      dependencies: [
        "AppSupport", "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback",
        "CascadeMiddleware", "InspectorLink",
      ],
      path: "Apps/RPG/RPGCore"
    ),
    .executableTarget(
      name: "rpg",
      dependencies: [
        "RPGCore", "AppSupport", "CascadeStreams", "CommandLineSupport", "InspectorLink",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Apps/RPG/rpg"
    ),

    // MARK: - Tooling

    // `cascade-compare`: the apps' scenarios on every architecture, compared.
    .target(
      name: "AppScenarios",
      dependencies: [
        "AppHarness", "AppSupport", "RPGCore", "MoviesCore", "MoviesServer", "TodoCore",
      ],
      path: "Tooling/Compare/AppScenarios"
    ),
    .target(
      name: "CompareKit",
      dependencies: ["AppHarness", "AppScenarios", "AppSupport"],
      path: "Tooling/Compare/CompareKit"
    ),
    .executableTarget(
      name: "CascadeCompare",
      dependencies: [
        "AppScenarios", "CompareKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tooling/Compare/CascadeCompare"
    ),

    // `rpg|movies|todo --inspect`: an app's live endpoint, which `cascade-inspect --live` reads.
    .target(
      name: "InspectorLink",
      dependencies: [
        "AppSupport", "CascadeFeedback", "CascadeReactor", "CascadeStore", "CascadeStreams",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Tooling/Inspector/InspectorLink"
    ),
    // `cascade-inspect`: a session recording served to a browser, to step through.
    .target(
      name: "InspectorKit",
      dependencies: [
        "AppSupport", "CascadeStreams", "InspectorLink", "MoviesCore", "RPGCore", "TodoCore",
        .product(name: "WSClient", package: "swift-websocket"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Tooling/Inspector/InspectorKit"
    ),
    .executableTarget(
      name: "CascadeInspect",
      dependencies: [
        "AppSupport", "CommandLineSupport", "InspectorKit", "InspectorLink",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tooling/Inspector/CascadeInspect"
    ),

    // MARK: - Tests
    .target(
      name: "CascadeTestSupport",
      dependencies: ["CascadeStreams"],
      path: "Tests/CascadeTestSupport"
    ),
    .target(
      name: "AppHarness",
      dependencies: [
        "AppSupport",
        "CascadeStreams",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Tests/AppHarness"
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
      name: "CommandLineSupportTests",
      dependencies: [
        "AppSupport",
        "CommandLineSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
      name: "MoviesTests",
      dependencies: [
        "AppHarness", "AppSupport", "CascadeStore", "CascadeStreams", "CascadeTestSupport",
        "CascadeTesting",
        "MoviesCore",
        "MoviesServer",
        // Built for the tests that run the `movies` executable, and fuzzed in-process.
        "movies",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "TodoTests",
      dependencies: [
        "AppSupport",
        "AppHarness",
        "AppScenarios",
        "CascadeStore",
        "CascadeStreams",
        "CascadeTestSupport",
        "CascadeTesting",
        "TodoCore",
        // Built for the tests that run the `todo` executable (found next to the test bundle).
        "todo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "RPGTests",
      dependencies: [
        "RPGCore", "rpg", "AppSupport", "AppHarness", "AppScenarios", "CascadeStore",
        "CascadeStreams",
        "CascadeTestSupport", "CascadeTesting",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "InspectorTests",
      dependencies: [
        "AppSupport", "CascadeTestSupport", "InspectorKit", "MoviesCore", "RPGCore", "TodoCore",
        // Built for the tests that run them: the inspector, and the three apps (the RPG makes
        // recordings; live mode attaches to each).
        "CascadeInspect", "movies", "rpg", "todo",
        "CascadeStore", "CascadeStreams", "InspectorLink",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        // The browser tests drive Chromium over its DevTools WebSocket.
        .product(name: "Logging", package: "swift-log"),
        .product(name: "WSClient", package: "swift-websocket"),
      ]
    ),
    .testTarget(
      name: "CompareTests",
      dependencies: [
        "AppHarness", "AppScenarios", "AppSupport", "CascadeStreams", "CascadeTesting",
        "CompareKit", "RPGCore",
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
