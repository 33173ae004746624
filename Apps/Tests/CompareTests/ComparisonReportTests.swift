import AppSupport
import CompareKit
import Foundation
import Testing

@Suite struct ComparisonReportTests {
  static let report = ComparisonReport(
    iterations: 3,
    configuration: "release",
    processors: 2,
    memoryMethod: "peak RSS delta",
    apps: [
      ComparisonReport.App(
        name: "RPG",
        scenarios: ["a full game"],
        architectures: [
          ComparisonReport.Result(
            architecture: .store,
            identicalStates: true,
            states: 12,
            linesOfCode: 100,
            files: ["Apps/RPG/RPGCore/StoreGame.swift"],
            seconds: 0.5,
            replaysPerSecond: 6,
            processorSecondsPerReplay: 0.05,
            peakMemoryBytes: 2_097_152
          ),
          ComparisonReport.Result(
            architecture: .reactor,
            identicalStates: false,
            difference: "a full game: differs from store at state 3",
            states: 11,
            linesOfCode: 60,
            files: ["Apps/RPG/RPGCore/ReactorGame.swift"],
            seconds: 1,
            replaysPerSecond: 3,
            processorSecondsPerReplay: 0.125,
            peakMemoryBytes: nil
          ),
        ]
      )
    ]
  )

  @Test func theJSONHasTheDocumentedShape() throws {
    let data = try JSONEncoder().encode(Self.report)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == ["iterations", "configuration", "processors", "memoryMethod", "apps"]
    )
    let apps = try #require(object["apps"] as? [[String: Any]])
    #expect(apps.first?["name"] as? String == "RPG")
    #expect(apps.first?["scenarios"] as? [String] == ["a full game"])
    let results = try #require(apps.first?["architectures"] as? [[String: Any]])
    let store = try #require(results.first)
    #expect(store["architecture"] as? String == "store")
    #expect(store["identicalStates"] as? Bool == true)
    #expect(store["linesOfCode"] as? Int == 100)
    #expect(store["replaysPerSecond"] as? Double == 6)
    #expect(store["processorSecondsPerReplay"] as? Double == 0.05)
    #expect(store["peakMemoryBytes"] as? Int == 2_097_152)
    #expect(store["files"] as? [String] == ["Apps/RPG/RPGCore/StoreGame.swift"])
    #expect(results.last?["difference"] as? String == "a full game: differs from store at state 3")
    #expect(try JSONDecoder().decode(ComparisonReport.self, from: data) == Self.report)
  }

  @Test func theMarkdownHasARowPerArchitecture() {
    let lines = Self.report.markdown.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("| App | Architecture | Same states | Lines of code |"))
    #expect(lines[2] == "| RPG | store | yes (12 states) | 100 | 6.0 | 166.67 | 50.00 | 2.0 MiB |")
    #expect(
      lines[3]
        == "| RPG | reactor | **no**: a full game: differs from store at state 3 | 60 | 3.0 "
        + "| 333.33 | 125.00 | n/a |"
    )
    #expect(!Self.report.allIdentical)
  }

  @Test func peakMemoryUnderAMebibyteIsShownInKibibytes() {
    var report = Self.report
    report.apps[0].architectures[0].peakMemoryBytes = 65_536
    #expect(report.markdown.contains("| 166.67 | 50.00 | 64 KiB |"))
  }

  @Test func peakMemoryFieldsAreReadInBytes() {
    let status = "Name:\tcascade\nVmHWM:\t   20480 kB\nVmRSS:\t    8192 kB\n"
    #expect(MemoryProbe.bytes("VmHWM", in: status) == 20_971_520)
    #expect(MemoryProbe.bytes("VmRSS", in: status) == 8_388_608)
    #expect(MemoryProbe.bytes("VmSwap", in: status) == nil)
  }

  @Test func theRootIsFoundFromBelowIt() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("compare-tests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let below = root.appendingPathComponent("Apps/RPG/RPGCore", isDirectory: true)
    try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true)
    try Data("// swift-tools-version: 6.2\n".utf8).write(
      to: root.appendingPathComponent("Package.swift")
    )
    #expect(try RepositoryRoot.find(from: below).path == root.standardizedFileURL.path)
    #expect(throws: RepositoryRoot.NotFound.self) {
      try RepositoryRoot.find(from: URL(fileURLWithPath: "/"))
    }
  }
}
