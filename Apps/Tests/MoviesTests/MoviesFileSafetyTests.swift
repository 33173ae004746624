import AppTestSupport
import Foundation
import Testing

/// `movies list --record FILE`, run as a user runs it (the built executable, on its embedded
/// server), writes INTO what `FILE` is: a symbolic link stays a link and its target gets the
/// recording; a pipe, a device or a directory is refused at once with one line and status 74,
/// and is left what it was.
@Suite struct MoviesFileSafetyTests {
  static let executable = builtProduct(named: "movies")

  static let list = ["list", "--pages", "1", "--architecture", "store"]

  /// Runs `movies`; killed after 30 seconds (a safety net: a FIFO must not make it wait).
  static func movies(_ arguments: [String]) async throws -> ChildRun {
    let executable = try #require(executable, "build the movies product first")
    let run = try await runChild(executable, arguments, input: .closed, timeout: .seconds(30))
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return run
  }

  /// A fresh directory, removed afterwards.
  static func withDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-files-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url.path)
  }

  /// Proves that a recording through a symbolic link goes to the link's target, the link stays
  /// a link, and the recording replays through it.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aRecordingIsWrittenThroughASymbolicLink() async throws {
    try await Self.withDirectory { directory in
      let target = directory + "/real.jsonl"
      try Data("old content\n".utf8).write(to: URL(fileURLWithPath: target))
      let link = directory + "/link.jsonl"
      try makeLink(atPath: link, to: target)
      let live = try await Self.movies(Self.list + ["--record", link])
      #expect(live.succeeded, "\(live.summary)")
      #expect(FileKind(atPath: link) == .symbolicLink)
      let written = try String(contentsOfFile: target, encoding: .utf8)
      #expect(written.hasPrefix(#"{"cascadeRecording":1}"#), "\(written.prefix(80))")
      #expect(!written.contains("old content"))
      let replayed = try await Self.movies(Self.list + ["--replay", link])
      #expect(replayed.succeeded, "\(replayed.summary)")
      #expect(replayed.output == live.output)
    }
  }

  /// Proves that `--record` refuses a FIFO (without waiting for a reader), `/dev/null`, a
  /// directory and a path in a missing directory with one line and status 74, printing nothing,
  /// and leaves each as it was; `--replay` of a directory is missing input (66).
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aRecordingIsNeverWrittenOverAPipeADeviceOrADirectory() async throws {
    try await Self.withDirectory { directory in
      let fifo = directory + "/pipe"
      try makeFIFO(atPath: fifo)
      let folder = directory + "/folder"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      let notRegular = "it is not a regular file (a device, a pipe or a socket)"
      let cases: [(path: String, kind: FileKind, reason: String)] = [
        (fifo, .fifo, notRegular),
        ("/dev/null", .characterDevice, notRegular),
        (folder, .directory, "it is a directory"),
        (directory + "/none/r.jsonl", .missing, "there is no directory \(directory)/none"),
      ]
      for (path, kind, reason) in cases {
        let run = try await Self.movies(Self.list + ["--record", path])
        #expect(run.status == 74, "\(path): \(run.summary)")
        #expect(
          run.errorText
            == "movies: cannot record the session: a record could not be written to \(path): "
            + "\(reason)\n"
        )
        #expect(run.output.isEmpty, "\(path): \(run.outputText)")
        #expect(FileKind(atPath: path) == kind, "\(path)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)

      let replay = try await Self.movies(Self.list + ["--replay", folder])
      #expect(replay.status == 66, "\(replay.summary)")
      #expect(replay.errorText == "movies: cannot replay \(folder): it is a directory\n")
    }
  }

  /// Proves that a `--catalog` file or a recording that is a FIFO is refused at once as missing
  /// input (66, one line), without waiting for a writer, and stays a FIFO.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aPipeIsNeverReadAsACatalogOrARecording() async throws {
    try await Self.withDirectory { directory in
      let fifo = directory + "/pipe.json"
      try makeFIFO(atPath: fifo)
      for (arguments, reason) in [
        (Self.list + ["--catalog", fifo], "is not a regular file"),
        (
          Self.list + ["--replay", fifo], "it is not a regular file (a device, a pipe or a socket)"
        ),
      ] {
        let run = try await Self.movies(arguments)
        #expect(run.status == 66, "movies \(arguments): \(run.summary)")
        #expect(run.errorText.contains(reason), "movies \(arguments): \(run.errorText)")
        #expect(FileKind(atPath: fifo) == .fifo)
      }
    }
  }
}
