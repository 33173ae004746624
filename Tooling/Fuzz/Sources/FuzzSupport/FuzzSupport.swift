internal import CFuzzDriver
public import Foundation

/// The bytes libFuzzer hands a fuzz target, as `Data`.
///
/// - Parameters:
///   - start: The first byte, or `nil` for an empty input.
///   - count: How many bytes there are.
/// - Returns: A copy of the bytes.
public func fuzzData(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
  guard let start, count > 0 else { return Data() }
  return Data(bytes: start, count: count)
}

/// Runs libFuzzer on `test` with the process's command line, and exits with its status.
///
/// A fuzz target's `main.swift` defines `LLVMFuzzerTestOneInput` (libFuzzer's runtime refers to
/// it) and calls this. SwiftPM gives an executable target a `main` of its own, so libFuzzer's
/// `main` is not linked in; its driver is called from here instead.
public func runFuzzer(
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// Runs `work` to its end, blocking the calling thread meanwhile: libFuzzer's own thread, never
/// one of the cooperative pool's, which runs `work`.
public func runToEnd(_ work: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await work()
    done.signal()
  }
  done.wait()
}

/// The files a reader that takes a path reads the input from: written once per input, in a
/// directory of the process's own under `$TMPDIR` (`Tooling/fuzz.sh` points it at a directory it
/// removes afterwards).
public struct FuzzFile: Sendable {
  /// The process's directory, made on first use.
  public static let shared = FuzzFile()

  /// The directory.
  public let directory: URL

  private init() {
    directory = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
      .appendingPathComponent("cascade-fuzz-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// Writes `data` to the file `name` in ``directory`` and returns its URL.
  public func write(_ data: Data, name: String) -> URL {
    let url = directory.appendingPathComponent(name)
    do {
      try data.write(to: url)
    } catch {
      fatalError("fuzz harness: cannot write \(url.path): \(error)")
    }
    return url
  }
}
