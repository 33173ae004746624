import AppSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ``SafeFile`` writes the file a path leads to, and nothing else; ``FileProblem`` says why not
/// in plain words.
@Suite struct SafeFileTests {
  /// A fresh directory, removed afterwards.
  static func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("safe-file-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
  }

  /// The kind of file at `path`, not following a link (`S_IFREG`, `S_IFLNK`…), or `nil`.
  static func type(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  static func names(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  /// The problem `write` throws, if any.
  static func problem(writing path: String, creatingDirectories: Bool = false) -> FileProblem? {
    do {
      try SafeFile.write(Data("new".utf8), to: path, creatingDirectories: creatingDirectories)
      return nil
    } catch {
      return error
    }
  }

  @Test func aNewFileIsCreatedAndAnOldOneReplacedKeepingItsPermissions() throws {
    try Self.withDirectory { directory throws in
      let path = directory + "/file"
      try SafeFile.write(Data("first".utf8), to: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("first".utf8))
      #expect(chmod(path, 0o640) == 0)
      try SafeFile.write(Data("second".utf8), to: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("second".utf8))
      var info = stat()
      #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
      #expect(try Self.names(directory) == ["file"], "a temporary file was left")
    }
  }

  @Test func aSymbolicLinkIsWrittenThroughAndKept() throws {
    try Self.withDirectory { directory throws in
      try FileManager.default.createDirectory(
        atPath: directory + "/sub",
        withIntermediateDirectories: false
      )
      try Data("old".utf8).write(to: URL(fileURLWithPath: directory + "/sub/target"))
      // A chain: an absolute link to a relative one.
      #expect(symlink("sub/target", directory + "/relative") == 0)
      #expect(symlink(directory + "/relative", directory + "/absolute") == 0)
      try SafeFile.write(Data("new".utf8), to: directory + "/absolute")
      #expect(Self.type(directory + "/absolute") == S_IFLNK)
      #expect(Self.type(directory + "/relative") == S_IFLNK)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: directory + "/sub/target")) == Data("new".utf8)
      )
      #expect(try Self.names(directory + "/sub") == ["target"], "a temporary file was left")
      #expect(try SafeFile.resolvingLinks(directory + "/absolute") == directory + "/sub/target")
    }
  }

  @Test func aDanglingLinksTargetIsCreated() throws {
    try Self.withDirectory { directory throws in
      #expect(symlink("missing", directory + "/link") == 0)
      try SafeFile.write(Data("new".utf8), to: directory + "/link")
      #expect(Self.type(directory + "/link") == S_IFLNK)
      #expect(Self.type(directory + "/missing") == S_IFREG)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: directory + "/missing")) == Data("new".utf8)
      )
    }
  }

  @Test func aPipeADeviceOrADirectoryIsRefusedAndLeftAsItWas() throws {
    try Self.withDirectory { directory throws in
      #expect(mkfifo(directory + "/pipe", 0o644) == 0)
      #expect(mkdir(directory + "/folder", 0o755) == 0)
      #expect(symlink("/dev/null", directory + "/null") == 0)
      let notRegular = "it is not a regular file (a device, a pipe or a socket)"
      #expect(Self.problem(writing: directory + "/pipe")?.reason == notRegular)
      #expect(Self.problem(writing: "/dev/null")?.kind == .notRegularFile)
      #expect(Self.problem(writing: directory + "/null")?.reason == notRegular)
      #expect(Self.problem(writing: directory + "/folder")?.reason == "it is a directory")
      #expect(Self.type(directory + "/pipe") == S_IFIFO)
      #expect(Self.type("/dev/null") == S_IFCHR)
      #expect(Self.type(directory + "/null") == S_IFLNK)
      #expect(try Self.names(directory + "/folder").isEmpty)
      #expect(try Self.names(directory) == ["folder", "null", "pipe"])
    }
  }

  @Test func aMissingDirectoryIsNamedOrCreated() throws {
    try Self.withDirectory { directory throws in
      let problem = Self.problem(writing: directory + "/none/file")
      #expect(problem?.kind == .missingDirectory)
      #expect(problem?.reason == "there is no directory \(directory)/none")
      #expect(Self.problem(writing: directory + "/a/b/file", creatingDirectories: true) == nil)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: directory + "/a/b/file")) == Data("new".utf8)
      )
      try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/plain"))
      #expect(
        Self.problem(writing: directory + "/plain/file")?.reason
          == "a part of the path is not a directory"
      )
    }
  }

  @Test func linksThatLeadToThemselvesAreRefused() throws {
    try Self.withDirectory { directory throws in
      #expect(symlink("b", directory + "/a") == 0)
      #expect(symlink("a", directory + "/b") == 0)
      let problem = Self.problem(writing: directory + "/a")
      #expect(problem?.kind == .other)
      #expect(problem?.reason == String(cString: strerror(ELOOP)).lowercased())
      #expect(Self.type(directory + "/a") == S_IFLNK)
    }
  }

  @Test func foundationErrorsAreSaidInPlainWords() throws {
    try Self.withDirectory { directory throws in
      let missing = directory + "/missing"
      do {
        _ = try Data(contentsOf: URL(fileURLWithPath: missing))
        Issue.record("read a missing file")
      } catch {
        #expect(FileProblem(error, path: missing).reason == "there is no such file")
        #expect(FileProblem.isFileError(error))
      }
      let wrapped = CocoaError(
        .fileWriteUnknown,
        userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))]
      )
      #expect(FileProblem(wrapped, path: missing).reason == "permission denied")
      #expect(
        FileProblem(CocoaError(.fileReadNoPermission), path: missing).kind == .permissionDenied
      )
      #expect(FileProblem(POSIXError(.EISDIR), path: directory).reason == "it is a directory")
      // An error that says nothing: what the path is now.
      #expect(
        FileProblem(CocoaError(.fileReadUnknown), path: directory).reason == "it is a directory"
      )
      #expect(FileProblem(CocoaError(.fileReadUnknown), path: "/dev/null").kind == .notRegularFile)
    }
  }
}
