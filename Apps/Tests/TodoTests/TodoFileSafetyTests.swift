import AppTestSupport
import Foundation
import Testing

/// `todo … --record FILE`, `todo export FILE` and `todo --db LINK`, run as a user runs them
/// (the built executable), write INTO what `FILE` is: a symbolic link stays a link and its target
/// gets the content; a pipe, a device or a directory is refused at once with one line and status
/// 74, and is left what it was.
@Suite struct TodoFileSafetyTests {
  static let executable = TodoExecutable.url

  static let notRegular = "it is not a regular file (a device, a pipe or a socket)"

  /// Runs `todo` in `directory`; killed after 20 seconds (a safety net: a FIFO must not make it
  /// wait).
  static func todo(_ arguments: [String], in directory: URL) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(
      executable,
      arguments,
      input: .closed,
      in: directory,
      timeout: .seconds(20)
    )
    #expect(!run.timedOut && !run.signalled, "todo \(arguments): \(run.summary)")
    return run
  }

  /// Proves that a recording and an export through a symbolic link go to the link's target (a
  /// dangling link's target is created), and each link stays a link.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aRecordingAndAnExportAreWrittenThroughASymbolicLink() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.path
      try Data("old content\n".utf8).write(to: directory.appendingPathComponent("real.jsonl"))
      try makeLink(atPath: path + "/record.jsonl", to: "real.jsonl")
      try makeLink(atPath: path + "/export.json", to: path + "/exported.json")
      let run = try await Self.todo(
        ["--db", "todo.sqlite", "--record", "record.jsonl", "add", "Buy milk"],
        in: directory
      )
      #expect(run.succeeded, "\(run.summary)")
      let export = try await Self.todo(
        ["--db", "todo.sqlite", "export", "export.json"],
        in: directory
      )
      #expect(export.outputText == "exported 1 task\n" || export.outputText == "exported 1 tasks\n")
      #expect(export.succeeded, "\(export.summary)")
      #expect(FileKind(atPath: path + "/record.jsonl") == .symbolicLink)
      #expect(FileKind(atPath: path + "/export.json") == .symbolicLink)
      let recorded = try String(contentsOfFile: path + "/real.jsonl", encoding: .utf8)
      #expect(recorded.hasPrefix(#"{"cascadeRecording":1}"#), "\(recorded.prefix(80))")
      #expect(!recorded.contains("old content"))
      let exported = try String(contentsOfFile: path + "/exported.json", encoding: .utf8)
      #expect(exported.contains("Buy milk"))
      // The recording replays through the link.
      let replayed = try await Self.todo(
        ["--db", "todo.sqlite", "--replay", "record.jsonl", "add", "Buy milk"],
        in: directory
      )
      #expect(replayed.output == run.output, "\(replayed.summary)")
    }
  }

  /// Proves that `--record` and `export` refuse a FIFO (without waiting for a reader),
  /// `/dev/null` and a directory with one line and status 74, and leave each as it was; a
  /// missing directory is named.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aRecordingOrAnExportIsNeverWrittenOverAPipeADeviceOrADirectory() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.path
      try makeFIFO(atPath: path + "/pipe")
      try FileManager.default.createDirectory(
        atPath: path + "/folder",
        withIntermediateDirectories: false
      )
      let added = try await Self.todo(["--db", "todo.sqlite", "add", "Buy milk"], in: directory)
      #expect(added.succeeded, "\(added.summary)")
      let cases: [(target: String, kind: FileKind, reason: String)] = [
        ("pipe", .fifo, Self.notRegular),
        ("/dev/null", .characterDevice, Self.notRegular),
        ("folder", .directory, "it is a directory"),
        ("none/file", .missing, "there is no directory \(path)/none"),
      ]
      for (target, kind, reason) in cases {
        let recordedPath = target.hasPrefix("/") ? target : path + "/" + target
        let record = try await Self.todo(
          ["--db", "todo.sqlite", "--record", target, "add", "Never"],
          in: directory
        )
        #expect(record.status == 74, "record \(target): \(record.summary)")
        #expect(
          record.errorText
            == "todo: cannot record the session: a record could not be written to "
            + "\(recordedPath): \(reason)\n"
        )
        let export = try await Self.todo(["--db", "todo.sqlite", "export", target], in: directory)
        #expect(export.status == 74, "export \(target): \(export.summary)")
        #expect(export.errorText == "todo: cannot write \(target): \(reason)\n")
        #expect(export.output.isEmpty)
        #expect(FileKind(atPath: recordedPath) == kind, "\(target)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/folder").isEmpty)
      // The refused recording added nothing.
      let list = try await Self.todo(["--db", "todo.sqlite", "list"], in: directory)
      #expect(list.succeeded, "\(list.summary)")
      #expect(!list.outputText.contains("Never"), "\(list.outputText)")
      let names = try FileManager.default.contentsOfDirectory(atPath: path)
        .filter { !$0.hasPrefix("todo.sqlite") }
      #expect(names.sorted() == ["folder", "pipe"], "a temporary file was left behind")
    }
  }

  /// Proves that a database reached through a symbolic link is used: tasks are added and listed
  /// through the link, the link stays a link, and SQLite's files go beside the real database.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aSymbolicallyLinkedDatabaseWorks() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.path
      try FileManager.default.createDirectory(
        atPath: path + "/data",
        withIntermediateDirectories: false
      )
      // A dangling link: the database is created at its target.
      try makeLink(atPath: path + "/todo.sqlite", to: "data/real.sqlite")
      for title in ["Buy milk", "Walk the dog"] {
        let run = try await Self.todo(["--db", "todo.sqlite", "add", title], in: directory)
        #expect(run.succeeded, "\(run.summary)")
      }
      let list = try await Self.todo(["--db", "todo.sqlite", "list"], in: directory)
      #expect(list.succeeded, "\(list.summary)")
      #expect(list.outputText.contains("Buy milk") && list.outputText.contains("Walk the dog"))
      #expect(FileKind(atPath: path + "/todo.sqlite") == .symbolicLink)
      #expect(FileKind(atPath: path + "/data/real.sqlite") == .regular)
      let beside = try FileManager.default.contentsOfDirectory(atPath: path)
      #expect(beside.sorted() == ["data", "todo.sqlite"], "SQLite's files went beside the link")
    }
  }

  /// Proves that a database path that is a device or a pipe is still refused, with 66, and left
  /// as it was.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aDatabaseThatIsAPipeOrADeviceIsStillRefused() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.path
      try makeFIFO(atPath: path + "/pipe")
      try makeLink(atPath: path + "/null", to: "/dev/null")
      for (database, checked, kind) in [
        ("pipe", path + "/pipe", FileKind.fifo), ("null", "/dev/null", .characterDevice),
      ] {
        let run = try await Self.todo(["--db", database, "list"], in: directory)
        #expect(run.status == 66, "\(database): \(run.summary)")
        #expect(run.errorText.hasPrefix("todo: "), "\(run.errorText)")
        #expect(run.errorText.contains("not a regular file"), "\(run.errorText)")
        #expect(run.errorText.split(separator: "\n").count == 1, "\(run.errorText)")
        #expect(FileKind(atPath: checked) == kind)
      }
      #expect(FileKind(atPath: path + "/null") == .symbolicLink)
    }
  }

  /// Proves that `--replay` of a directory and `import /dev/null` are refused with 66 and one
  /// line saying so in plain words.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func replayingADirectoryIsMissingInput() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(
        ["--db", "todo.sqlite", "--replay", directory.path, "list"],
        in: directory
      )
      #expect(run.status == 66, "\(run.summary)")
      #expect(run.errorText == "todo: cannot replay \(directory.path): it is a directory\n")
      let null = try await Self.todo(["--db", "todo.sqlite", "import", "/dev/null"], in: directory)
      #expect(null.status == 66, "\(null.summary)")
      #expect(
        null.errorText
          == "todo: cannot read /dev/null: it is not a regular file (a device, a pipe or a socket)\n"
      )
    }
  }

  /// Proves that an import or a recording that is a FIFO is refused at once as missing input
  /// (66, one line), without waiting for a writer, and stays a FIFO.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aPipeIsNeverReadAsAnImportOrARecording() async throws {
    try await withTemporaryDirectory { directory in
      let fifo = directory.appendingPathComponent("pipe").path
      try makeFIFO(atPath: fifo)
      for arguments in [
        ["--db", "t.sqlite", "import", fifo],
        ["--db", "t.sqlite", "list", "--replay", fifo],
      ] {
        let run = try await Self.todo(arguments, in: directory)
        #expect(run.status == 66, "todo \(arguments): \(run.summary)")
        #expect(run.errorText.contains(Self.notRegular), "todo \(arguments): \(run.errorText)")
        #expect(FileKind(atPath: fifo) == .fifo)
      }
    }
  }
}
