// swift-tools-version: 6.2
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for every reader of outside data in the sample apps:
// one executable per reader, each calling it as the app does. Built and run by Tooling/fuzz.sh:
//
//   swift build --package-path Tooling/Fuzz --scratch-path Tooling/Fuzz/.build \
//     -Xswiftc -sanitize=fuzzer,address
//   Tooling/Fuzz/.build/debug/fuzz-rpg-save -max_total_time=60 CORPUS_COPY
//
// SwiftPM gives each executable a `main` (main.swift), which hands libFuzzer's driver the
// target's `LLVMFuzzerTestOneInput` (FuzzSupport's `runFuzzer`).

/// CI turns every warning into an error through the manifest, as the other packages do.
let ci: [SwiftSetting] = Context.environment["CI"] != nil ? [.treatAllWarnings(as: .error)] : []

let package = Package(
  name: "cascade-fuzz",
  dependencies: [
    // The apps' cores, by path (their library products exist for this package).
    .package(name: "cascade-samples", path: "../../Apps")
  ],
  targets: [
    .target(name: "CFuzzDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"]),
    .executableTarget(
      name: "fuzz-recording",
      dependencies: [
        "FuzzSupport",
        .product(name: "AppSupport", package: "cascade-samples"),
        .product(name: "MoviesCore", package: "cascade-samples"),
        .product(name: "RPGCore", package: "cascade-samples"),
        .product(name: "TodoCore", package: "cascade-samples"),
      ]
    ),
    .executableTarget(
      name: "fuzz-rpg-save",
      dependencies: ["FuzzSupport", .product(name: "RPGCore", package: "cascade-samples")]
    ),
    .executableTarget(
      name: "fuzz-movies-page",
      dependencies: ["FuzzSupport", .product(name: "MoviesCore", package: "cascade-samples")]
    ),
    .executableTarget(
      name: "fuzz-movies-catalog",
      dependencies: ["FuzzSupport", .product(name: "MoviesServer", package: "cascade-samples")]
    ),
    .executableTarget(
      name: "fuzz-todo-import",
      dependencies: ["FuzzSupport", .product(name: "TodoCore", package: "cascade-samples")]
    ),
    .executableTarget(
      name: "fuzz-command-line",
      dependencies: [
        "FuzzSupport",
        .product(name: "CommandLineSupport", package: "cascade-samples"),
        .product(name: "RPGCore", package: "cascade-samples"),
        .product(name: "TodoCore", package: "cascade-samples"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + ci
}
