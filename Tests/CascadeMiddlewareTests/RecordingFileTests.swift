import CascadeMiddleware
import CascadeStore
import CascadeTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording file is written INTO: through a symbolic link (the link kept), never over a
/// device or a pipe, which are refused before anything is written.
@Suite(.checksResources)
struct RecordingFileTests {
  /// The kind of file at `path`, not following a link (`S_IFREG`, `S_IFLNK`…), or `nil`.
  static func type(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  @Test func aRecordingIsWrittenThroughASymbolicLinkWhichIsKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.file("target.jsonl")
    try Data("old\n".utf8).write(to: target)
    let link = directory.file("link.jsonl")
    try FileManager.default.createSymbolicLink(
      atPath: link.path,
      withDestinationPath: "target.jsonl"
    )
    let recorder = RecordingMiddleware<Op, Tally>(file: link)
    _ = recorder.intercept(.add(1), state: Tally())
    _ = recorder.intercept(.add(2), state: Tally())
    #expect(Self.type(link.path) == S_IFLNK)
    #expect(try Recording<Op>(contentsOf: target).inputs == [.add(1), .add(2)])
    #expect(try !String(contentsOf: target, encoding: .utf8).contains("old"))
  }

  @Test func aPipeOrADeviceIsRefusedAndLeftAsItWas() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.file("pipe").path
    #expect(mkfifo(fifo, 0o644) == 0)
    for path in [fifo, "/dev/null"] {
      let failures = Journal<RecordingWriteError>()
      let recorder = RecordingMiddleware<Op, Tally>(
        file: URL(fileURLWithPath: path),
        onError: { failures.append($0) }
      )
      // A pipe without a reader: refused at once, not waited on.
      _ = recorder.intercept(.add(1), state: Tally())
      let error = try #require(failures.values.first?.underlying as? RecordingFileError)
      #expect(error == RecordingFileError(path: path, problem: .notRegularFile))
      #expect(
        error.description == "\(path) is not a regular file (a device, a pipe or a socket)"
      )
    }
    #expect(Self.type(fifo) == S_IFIFO)
    #expect(Self.type("/dev/null") == S_IFCHR)
  }
}
