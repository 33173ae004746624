import AppScenarios
import AppSupport
import ArgumentParser
import CommandLineSupport
import CompareKit
import Foundation

/// `cascade-compare`: runs each app's scenarios on every architecture and prints, per app and
/// architecture, whether the states were identical, the lines of code, throughput and peak
/// memory.
@main
struct CompareCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cascade-compare",
    abstract: "Compares the store, reactor and feedback implementations of the sample apps.",
    discussion: """
      For each app (RPG, Movies, Todo) and architecture: whether the sequences of distinct \
      states were identical across the three architectures, the non-blank, non-comment lines \
      of the architecture's implementation, replays of the app's scenarios per second, \
      processor time per replay, and the peak memory the replays added. Prints a Markdown table; --json also writes JSON. \
      Exits with status 1 when some architecture went through different states, 74 when \
      the JSON cannot be written. Build in \
      release for meaningful numbers: swift run -c release cascade-compare
      """
  )

  @Option(help: "How many times each app's scenarios are replayed per architecture (≥ 1).")
  var iterations = 20

  @Option(
    help: ArgumentHelp(
      "The repository root, where the sources are counted.",
      discussion: "By default, the working directory or the nearest directory above it with "
        + "a Package.swift next to an Apps folder.",
      valueName: "directory"
    )
  )
  var root: String?

  @Option(help: ArgumentHelp("Also write the report as JSON to this file.", valueName: "file"))
  var json: String?

  @Option(
    name: .customLong("app"),
    help: ArgumentHelp("Only this app (rpg, movies, todo); repeatable.", valueName: "name")
  )
  var apps: [String] = []

  func validate() throws {
    guard iterations >= 1 else {
      throw ValidationError("--iterations must be at least 1, not \(iterations)")
    }
    let known = comparedApps.map { $0.name.lowercased() }
    for app in apps where !known.contains(app.lowercased()) {
      throw ValidationError(
        "unknown app '\(app)'; known apps: \(known.joined(separator: ", "))"
      )
    }
    if let json {
      let directory = URL(fileURLWithPath: json).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw ValidationError("--json \(json): the directory \(directory) does not exist")
      }
    }
  }

  func run() async throws {
    let start = URL(fileURLWithPath: root ?? FileManager.default.currentDirectoryPath)
    let repository: URL
    do {
      repository = try RepositoryRoot.find(from: start)
    } catch {
      throw ValidationError(error.description)
    }
    let selected = comparedApps.filter { app in
      apps.isEmpty || apps.contains { $0.lowercased() == app.name.lowercased() }
    }
    let comparison = Comparison(root: repository, iterations: iterations) { line in
      StandardError.print(line)
    }
    let report = try await comparison.run(selected)
    print(report.markdown, terminator: "")
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      do {
        // Through a symbolic link; never over a device, a pipe, a socket or a directory.
        try SafeFile.write(try encoder.encode(report), to: json)
      } catch {
        FileHandle.standardError.write(
          Data("cascade-compare: cannot write \(json): \(FileProblem(error, path: json))\n".utf8)
        )
        throw ExitCode(74)
      }
    }
    guard report.allIdentical else {
      StandardError.print("some architecture went through different states (see the table)")
      throw ExitCode(1)
    }
  }
}
