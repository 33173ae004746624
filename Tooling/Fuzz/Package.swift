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

/// A fuzz target: its `main.swift` in `Sources/<name>`, FuzzSupport, and the samples' products
/// whose readers it calls.
func fuzzTarget(_ name: String, reading products: String...) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["FuzzSupport"]
      + products.map { .product(name: $0, package: "cascade-samples") }
  )
}

let package = Package(
  name: "cascade-fuzz",
  dependencies: [
    // The apps' cores, by path (their library products exist for this package).
    .package(name: "cascade-samples", path: "../../Apps")
  ],
  targets: [
    .target(name: "CFuzzDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"]),
    fuzzTarget("fuzz-recording", reading: "AppSupport", "MoviesCore", "RPGCore", "TodoCore"),
    fuzzTarget("fuzz-inspector", reading: "InspectorKit"),
    fuzzTarget("fuzz-rpg-save", reading: "RPGCore"),
    fuzzTarget("fuzz-movies-page", reading: "MoviesCore"),
    fuzzTarget("fuzz-movies-catalog", reading: "MoviesServer"),
    fuzzTarget("fuzz-todo-import", reading: "TodoCore"),
    fuzzTarget("fuzz-command-line", reading: "CommandLineSupport", "RPGCore", "TodoCore"),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable].contains(target.type) {
  target.swiftSettings = (target.swiftSettings ?? []) + ci
}
