import AppTestSupport
import Foundation
import Testing

/// `rpg … --record FILE` and `rpg new … --save FILE --force`, run as a player runs them (the
/// built executable), write INTO what `FILE` is: a symbolic link stays a link and its target
/// gets the content; a pipe, a device or a directory is refused at once with one line and
/// status 74, and is left what it was.
@Suite struct RPGFileSafetyTests {
  static let executable = builtProduct(named: "rpg")

  static let notRegular = "it is not a regular file (a device, a pipe or a socket)"

  /// Runs `rpg`; killed after 20 seconds (a safety net: a FIFO must not make it wait).
  static func rpg(_ arguments: [String]) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    let run = try await runChild(executable, arguments, input: .closed, timeout: .seconds(20))
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return run
  }

  /// Proves that a recording through a symbolic link goes to the link's target, and the link
  /// stays a link; a dangling link's target is created.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aRecordingIsWrittenThroughASymbolicLink() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.file("real.jsonl").path
    try Data("old content\n".utf8).write(to: URL(fileURLWithPath: target))
    let link = directory.file("link.jsonl").path
    try makeLink(atPath: link, to: "real.jsonl")
    let dangling = directory.file("dangling.jsonl").path
    try makeLink(atPath: dangling, to: "created.jsonl")
    for path in [link, dangling] {
      let save = directory.file("save-\(UUID().uuidString).json").path
      let run = try await Self.rpg(["new", "--name", "Ada", "--save", save, "--record", path])
      #expect(run.succeeded, "\(run.summary)")
      #expect(FileKind(atPath: path) == .symbolicLink)
    }
    let written = try String(contentsOfFile: target, encoding: .utf8)
    #expect(written.hasPrefix(#"{"cascadeRecording":1}"#), "\(written.prefix(80))")
    #expect(!written.contains("old content"))
    let created = directory.file("created.jsonl").path
    #expect(FileKind(atPath: created) == .regular)
    #expect(try String(contentsOfFile: created, encoding: .utf8).hasPrefix(#"{"cascadeRecording""#))
  }

  /// Proves that `--record` refuses a FIFO (without waiting for a reader), `/dev/null` and a
  /// directory with one line and status 74 before the game starts, and leaves each as it was.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aRecordingIsNeverWrittenOverAPipeADeviceOrADirectory() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.file("pipe").path
    try makeFIFO(atPath: fifo)
    let folder = directory.file("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let cases: [(path: String, kind: FileKind, reason: String)] = [
      (fifo, .fifo, Self.notRegular),
      ("/dev/null", .characterDevice, Self.notRegular),
      (folder, .directory, "it is a directory"),
    ]
    for (path, kind, reason) in cases {
      let save = directory.file("save.json").path
      let run = try await Self.rpg(["new", "--name", "Ada", "--save", save, "--record", path])
      #expect(run.status == 74, "\(path): \(run.summary)")
      #expect(
        run.errorText
          == "rpg: cannot record the session: a record could not be written to \(path): \(reason)\n"
      )
      #expect(run.output.isEmpty, "\(path): \(run.outputText)")
      #expect(FileKind(atPath: path) == kind, "\(path)")
      #expect(FileKind(atPath: save) == .missing, "the game started despite \(path)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  /// Proves that `rpg new --force` saves through a symbolic link (the link kept, its target — or
  /// a dangling link's missing target — gets the game), keeping the file's permission bits.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aSaveIsWrittenThroughASymbolicLink() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.file("real.json").path
    try Data("{}".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
    let link = directory.file("save.json").path
    try makeLink(atPath: link, to: target)
    let dangling = directory.file("dangling.json").path
    try makeLink(atPath: dangling, to: "created.json")
    for path in [link, dangling] {
      let run = try await Self.rpg(["new", "--name", "Ada", "--save", path, "--force"])
      #expect(run.succeeded, "\(run.summary)")
      #expect(FileKind(atPath: path) == .symbolicLink)
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains(#""Ada""#))
    let permissions = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions]
    #expect((permissions as? NSNumber)?.intValue == 0o600)
    let created = directory.file("created.json").path
    #expect(FileKind(atPath: created) == .regular)
    #expect(try String(contentsOfFile: created, encoding: .utf8).contains(#""Ada""#))
    let shown = try await Self.rpg(["show", "--save", link])
    #expect(shown.succeeded, "\(shown.summary)")
    #expect(shown.outputText.contains("Ada"))
    // No temporary file is left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(names.sorted() == ["created.json", "dangling.json", "real.json", "save.json"])
  }

  /// Proves that `rpg new --force` refuses a FIFO, `/dev/null`, a directory and a path under a
  /// file with one line and status 74, and leaves each as it was.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aSaveIsNeverWrittenOverAPipeADeviceOrADirectory() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.file("pipe").path
    try makeFIFO(atPath: fifo)
    let folder = directory.file("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let file = directory.file("file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let cases: [(path: String, checked: String, kind: FileKind, reason: String)] = [
      (fifo, fifo, .fifo, Self.notRegular),
      ("/dev/null", "/dev/null", .characterDevice, Self.notRegular),
      (folder, folder, .directory, "it is a directory"),
      (file + "/save.json", file, .regular, "a part of the path is not a directory"),
    ]
    for (path, checked, kind, reason) in cases {
      let run = try await Self.rpg(["new", "--name", "Ada", "--save", path, "--force"])
      #expect(run.status == 74, "\(path): \(run.summary)")
      #expect(
        run.errorText
          == "rpg: cannot save the game to \(path): the save file could not be read or written: "
          + "\(reason)\n"
      )
      #expect(FileKind(atPath: checked) == kind, "\(path)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("x".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(names.sorted() == ["file", "folder", "pipe"], "a temporary file was left behind")
  }

  /// Proves that a recording, a script or a save that is a directory or a device is missing
  /// input (66), said in plain words (no Foundation error code), and not "permission denied"
  /// for a readable `/dev/null`.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func unreadableInputsAreMissingInputInPlainWords() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.url.path
    let save = directory.file("save.json").path
    let cases: [(arguments: [String], message: String)] = [
      (["play", "--save", save, "--replay", folder], "cannot replay \(folder): it is a directory"),
      (
        ["play", "--save", save, "--replay", "/dev/null"],
        "cannot replay /dev/null: \(Self.notRegular)"
      ),
      (
        ["play", "--save", save, "--script", "/dev/null"],
        "cannot read the script /dev/null: \(Self.notRegular)"
      ),
      (
        ["show", "--save", "/dev/null"],
        "cannot load the game from /dev/null: the save file could not be read or written: "
          + Self.notRegular
      ),
    ]
    for (arguments, message) in cases {
      let run = try await Self.rpg(arguments)
      #expect(run.status == 66, "rpg \(arguments): \(run.summary)")
      #expect(run.errorText == "rpg: \(message)\n")
      #expect(FileKind(atPath: save) == .missing)
    }
    #expect(FileKind(atPath: "/dev/null") == .characterDevice)
  }

  /// Proves that a save, a script or a recording that is a FIFO is refused at once as missing
  /// input (66, one line), without waiting for a writer, and stays a FIFO. (Before: `rpg show`
  /// waited for a writer until killed.)
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aPipeIsNeverReadAsASaveAScriptOrARecording() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.file("pipe").path
    try makeFIFO(atPath: fifo)
    let save = directory.file("save.json").path
    for arguments in [
      ["show", "--save", fifo],
      ["play", "--save", fifo],
      ["play", "--script", fifo, "--save", save],
      ["play", "--replay", fifo, "--save", save],
    ] {
      let run = try await Self.rpg(arguments)
      #expect(run.status == 66, "rpg \(arguments): \(run.summary)")
      #expect(run.errorText.contains(Self.notRegular), "rpg \(arguments): \(run.errorText)")
      #expect(run.errorText.split(separator: "\n").count == 1, "\(run.errorText)")
      #expect(FileKind(atPath: fifo) == .fifo)
      #expect(FileKind(atPath: save) == .missing)
    }
  }
}
