// swift-tools-version: 6.2
import PackageDescription

// The samples and their tools: a package of their own, so that a user of the libraries (the
// root package) resolves and builds none of what they need — HTTP, SQLite, servers, argument
// parsing. It depends on the libraries by path, as Tooling/Benchmarks does.
//
//   swift run --package-path Apps rpg play --script Apps/RPG/demo.txt --save /tmp/demo.json
//   swift test --package-path Apps
//
// - RPG/, Movies/, Todo/: the three headless apps, each on every architecture behind one
//   interface (AppSupport/), with a command-line front (CommandLineSupport/).
// - Inspector/: `cascade-inspect`, and the `--inspect` endpoint the apps open (InspectorLink).
// - Compare/: `cascade-compare`, the apps' scenarios run and compared on every architecture.
// - Tests/: the apps' and tools' tests; AppHarness runs one scenario on every architecture.

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

/// A library of the root package (`CascadeStore`, …).
func cascade(_ library: String) -> Target.Dependency {
  .product(name: library, package: "cascade")
}

/// What each app's core builds on: the three architectures, their streams, and the middlewares
/// that record and replay a session.
let architectures: [Target.Dependency] = [
  "CascadeStreams", "CascadeStore", "CascadeReactor", "CascadeFeedback", "CascadeMiddleware",
].map(cascade)

let package = Package(
  name: "cascade-samples",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "movies", targets: ["movies"]),
    .executable(name: "todo", targets: ["todo"]),
    .executable(name: "rpg", targets: ["rpg"]),
    .executable(name: "cascade-compare", targets: ["CascadeCompare"]),
    .executable(name: "cascade-inspect", targets: ["CascadeInspect"]),
    // The cores whose readers of outside data (a recording, the inspector's index of one, a
    // save, a page, a catalog, an import, a typed line and its UTF-8 check) Tooling/Fuzz
    // fuzzes: a package depends on another's products only.
    .library(name: "AppSupport", targets: ["AppSupport"]),
    .library(name: "CommandLineSupport", targets: ["CommandLineSupport"]),
    .library(name: "InspectorKit", targets: ["InspectorKit"]),
    .library(name: "MoviesCore", targets: ["MoviesCore"]),
    .library(name: "MoviesServer", targets: ["MoviesServer"]),
    .library(name: "RPGCore", targets: ["RPGCore"]),
    .library(name: "TodoCore", targets: ["TodoCore"]),
  ],
  dependencies: [
    // The libraries, by path; `name:` pins its identity whatever the checkout's folder is called.
    .package(name: "cascade", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // The movies app's HTTP client on Linux (Foundation's URLSession on Apple platforms).
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // `cascade-inspect --live`'s WebSocket client (the apps' endpoints serve with FlyingFox).
    .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
  ],
  targets: [
    // MARK: - Shared by the apps

    .target(
      name: "AppSupport",
      // Sessions are recorded with CascadeMiddleware's RecordingMiddleware, read back as its
      // Recordings.
      dependencies: architectures,
      path: "AppSupport"
    ),
    .target(
      name: "CommandLineSupport",
      dependencies: [
        "AppSupport", "InspectorLink",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "CommandLineSupport"
    ),

    // MARK: - Movies

    .target(
      name: "MoviesCore",
      dependencies: architectures + [
        "AppSupport", "InspectorLink",
        // Linux's HTTP transport: URLSession there costs about twice curl's time per page.
        .product(
          name: "AsyncHTTPClient",
          package: "async-http-client",
          condition: .when(platforms: [.linux])
        ),
        .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
      ],
      path: "Movies/MoviesCore"
    ),
    .target(
      name: "MoviesServer",
      dependencies: [
        "AppSupport", "MoviesCore",
        cascade("CascadeStreams"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Movies/MoviesServer",
      resources: [.copy("Resources/catalog.json")]
    ),
    .executableTarget(
      name: "movies",
      dependencies: [
        "AppSupport", "CommandLineSupport", "MoviesCore", "MoviesServer",
        cascade("CascadeStreams"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Movies/movies"
    ),

    // MARK: - Todo

    .target(
      name: "TodoCore",
      dependencies: architectures + [
        "AppSupport", "InspectorLink",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Todo/TodoCore"
    ),
    .executableTarget(
      name: "todo",
      dependencies: [
        "AppSupport", "CommandLineSupport", "InspectorLink", "TodoCore",
        cascade("CascadeStreams"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Todo/todo"
    ),

    // MARK: - RPG

    .target(
      name: "RPGCore",
      dependencies: architectures + ["AppSupport", "InspectorLink"],
      path: "RPG/RPGCore"
    ),
    .executableTarget(
      name: "rpg",
      dependencies: [
        "RPGCore", "AppSupport", "CommandLineSupport", "InspectorLink",
        cascade("CascadeStreams"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "RPG/rpg"
    ),

    // MARK: - cascade-compare: the apps' scenarios on every architecture, compared

    .target(
      name: "AppScenarios",
      dependencies: [
        "AppHarness", "AppSupport", "RPGCore", "MoviesCore", "MoviesServer", "TodoCore",
      ],
      path: "Compare/AppScenarios"
    ),
    .target(
      name: "CompareKit",
      dependencies: ["AppHarness", "AppScenarios", "AppSupport"],
      path: "Compare/CompareKit"
    ),
    .executableTarget(
      name: "CascadeCompare",
      dependencies: [
        "AppScenarios", "AppSupport", "CommandLineSupport", "CompareKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Compare/CascadeCompare"
    ),

    // MARK: - cascade-inspect: a session, recorded or live, served to a browser

    // `rpg|movies|todo --inspect`: an app's live endpoint, which `cascade-inspect --live` reads.
    .target(
      name: "InspectorLink",
      dependencies: [
        "AppSupport",
        cascade("CascadeFeedback"),
        cascade("CascadeMiddleware"),
        cascade("CascadeReactor"),
        cascade("CascadeStore"),
        cascade("CascadeStreams"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Inspector/InspectorLink"
    ),
    .target(
      name: "InspectorKit",
      dependencies: [
        "AppSupport", "InspectorLink", "MoviesCore", "RPGCore", "TodoCore",
        cascade("CascadeStreams"),
        .product(name: "WSClient", package: "swift-websocket"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      path: "Inspector/InspectorKit"
    ),
    .executableTarget(
      name: "CascadeInspect",
      dependencies: [
        "AppSupport", "CommandLineSupport", "InspectorKit", "InspectorLink",
        cascade("CascadeStreams"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Inspector/CascadeInspect"
    ),
    // The inspector at scale (issue 36), measured by hand in release: scrubbing a recording of
    // 100,000 inputs on a state of megabytes, and a live inspector's cost in throughput.
    .executableTarget(
      name: "cascade-inspector-bench",
      dependencies: [
        "AppSupport", "InspectorKit", "InspectorLink", "RPGCore", "TodoCore",
        cascade("CascadeStore"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ],
      path: "Inspector/InspectorBench"
    ),

    // MARK: - Tests

    // The test helpers: child processes and servers, fuzzed command lines, and (Shared/, the
    // root package's Tests/CascadeTestSupport) waits, recorders and threads.
    .target(
      name: "AppTestSupport",
      dependencies: [cascade("CascadeStreams")],
      path: "Tests/AppTestSupport"
    ),
    .target(
      name: "AppHarness",
      dependencies: [
        "AppSupport",
        cascade("CascadeStreams"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Tests/AppHarness"
    ),
    .testTarget(
      name: "CommandLineSupportTests",
      dependencies: [
        "AppSupport", "CommandLineSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tests/CommandLineSupportTests"
    ),
    .testTarget(
      name: "MoviesTests",
      dependencies: [
        "AppHarness", "AppSupport", "AppTestSupport", "MoviesCore", "MoviesServer",
        // The tests generated from recordings (Recorded/) run every architecture's TestStore.
        cascade("CascadeFeedback"),
        cascade("CascadeReactor"),
        cascade("CascadeStore"),
        cascade("CascadeStreams"),
        cascade("CascadeTesting"),
        // Built for the tests that run the `movies` executable, and fuzzed in-process.
        "movies",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tests/MoviesTests"
    ),
    .testTarget(
      name: "TodoTests",
      dependencies: [
        "AppHarness", "AppScenarios", "AppSupport", "AppTestSupport", "TodoCore",
        // The tests generated from recordings (Recorded/) run every architecture's TestStore.
        cascade("CascadeFeedback"),
        cascade("CascadeReactor"),
        cascade("CascadeStore"),
        cascade("CascadeStreams"),
        cascade("CascadeTesting"),
        // Built for the tests that run the `todo` executable (found next to the test bundle).
        "todo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/TodoTests"
    ),
    .testTarget(
      name: "RPGTests",
      dependencies: [
        "RPGCore", "rpg", "AppHarness", "AppScenarios", "AppSupport", "AppTestSupport",
        // The tests generated from recordings (Recorded/) run every architecture's TestStore.
        cascade("CascadeFeedback"),
        cascade("CascadeReactor"),
        cascade("CascadeStore"),
        cascade("CascadeStreams"),
        cascade("CascadeTesting"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tests/RPGTests"
    ),
    .testTarget(
      name: "InspectorTests",
      dependencies: [
        "AppSupport", "AppTestSupport", "InspectorKit", "InspectorLink", "MoviesCore", "RPGCore",
        "TodoCore",
        // Built for the tests that run them: the inspector, and the three apps (the RPG makes
        // recordings; live mode attaches to each).
        "CascadeInspect", "movies", "rpg", "todo",
        // OwnAppInspectionTests records an app of its own on every architecture.
        cascade("CascadeFeedback"),
        cascade("CascadeMiddleware"),
        cascade("CascadeReactor"),
        cascade("CascadeStore"),
        cascade("CascadeStreams"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        // The browser tests drive Chromium over its DevTools WebSocket.
        .product(name: "Logging", package: "swift-log"),
        .product(name: "WSClient", package: "swift-websocket"),
      ],
      path: "Tests/InspectorTests"
    ),
    .testTarget(
      name: "CompareTests",
      dependencies: [
        "AppHarness", "AppScenarios", "AppSupport", "CompareKit", "RPGCore",
        cascade("CascadeStreams"),
        cascade("CascadeTesting"),
      ],
      path: "Tests/CompareTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable, .test].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + settings + ci
}
