import AppSupport
import AppTestSupport
import Foundation
import Testing

/// The built `cascade-inspect` with a standard error it cannot write, and help or version into a
/// closed standard output.
@Suite struct InspectorStandardStreamTests {
  static let executable = builtProduct(named: "cascade-inspect")

  /// Runs `cascade-inspect`; killed after 60 seconds.
  static func inspect(
    _ arguments: [String],
    output: ChildOutput = .file,
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the cascade-inspect product first")
    let run = try await runChild(executable, arguments, output: output, shell: shell)
    #expect(!run.timedOut && !run.signalled, "cascade-inspect \(arguments): \(run.summary)")
    return run
  }

  /// Proves that a missing recording into a full (`2>/dev/full`) or closed (`2>&-`) standard
  /// error still ends with 66: it used to trap (SIGILL, 132).
  @Test(.enabled(if: executable != nil, "build cascade-inspect first"))
  func aFullOrClosedStandardErrorKeepsTheStatus() async throws {
    let told = try await Self.inspect(["nosuch"])
    #expect(told.status == ExitStatus.noInput.rawValue, "\(told.summary)")
    #expect(told.errorText.filter { $0 == "\n" }.count == 1, "\(told.errorText)")
    for redirect in ["2>/dev/full", "2>&-"] {
      let lost = try await Self.inspect(["nosuch"], shell: #"exec "$@" "# + redirect)
      #expect(lost.status == ExitStatus.noInput.rawValue, "\(redirect): \(lost.summary)")
    }
  }

  /// Proves that `--version` and `--help` into a closed standard output (`>&-`) or a pipe nobody
  /// reads (`| head -0`) end with 74, as other output does, not 0.
  @Test(
    .enabled(if: executable != nil, "build cascade-inspect first"),
    arguments: [["--version"], ["--help"]]
  )
  func helpAndVersionIntoAClosedOutputEndWith74(_ arguments: [String]) async throws {
    let open = try await Self.inspect(arguments)
    #expect(open.succeeded && !open.output.isEmpty, "\(open.summary)")
    let closed = try await Self.inspect(arguments, shell: #"exec "$@" >&-"#)
    #expect(closed.status == ExitStatus.ioError.rawValue, "\(closed.summary)")
    #expect(closed.errors.isEmpty, "\(closed.errorText)")
    let piped = try await Self.inspect(arguments, output: .closedPipe)
    #expect(piped.status == ExitStatus.ioError.rawValue, "\(piped.summary)")
    #expect(piped.errors.isEmpty, "\(piped.errorText)")
  }

  /// Proves that a recording that is a FIFO is refused at once as missing input (66, one line),
  /// without waiting for a writer, and stays a FIFO.
  @Test(.enabled(if: executable != nil, "build cascade-inspect first"))
  func aPipeIsNeverOpenedAsARecording() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("inspect-pipe-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("pipe.jsonl").path
    try makeFIFO(atPath: fifo)
    let run = try await Self.inspect([fifo])
    #expect(run.status == ExitStatus.noInput.rawValue, "\(run.summary)")
    #expect(run.errorText.contains("it is not a regular file"), "\(run.errorText)")
    #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(run.errorText)")
    #expect(FileKind(atPath: fifo) == .fifo)
  }
}
