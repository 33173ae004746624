import CascadeStreams
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written one line at a time, opened on the first write.
///
/// Writes are serialised by a lock; no user code runs under it. A write that fails (the file
/// cannot be created or written, or is not a regular file) throws, and the next write tries
/// again.
final class JSONLinesFile: Sendable {
  private struct Storage {
    var handle: FileHandle?
    var opened = false
  }

  let url: URL
  private let append: Bool
  /// Written first into a new or empty file.
  private let header: Data?
  /// The file handle, only used under the lock.
  private let storage = LockedValue(Storage())

  init(url: URL, append: Bool, header: Data? = nil) {
    self.url = url
    self.append = append
    self.header = header
  }

  deinit {
    storage.withLock { try? $0.handle?.close() }
  }

  /// Appends `line` and a newline to the file.
  func write(_ line: Data) throws {
    try storage.withLock { storage in
      if storage.handle == nil {
        // Truncate on the first opening unless appending; reopen after a failure keeps what
        // was written.
        let descriptor = try Self.open(url.path, truncating: !storage.opened && !append)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        if try handle.seekToEnd() == 0, var header {
          header.append(0x0A)
          try handle.write(contentsOf: header)
        }
        storage.handle = handle
        storage.opened = true
      }
      var data = line
      data.append(0x0A)
      do {
        try storage.handle?.write(contentsOf: data)
      } catch {
        try? storage.handle?.close()
        storage.handle = nil
        throw error
      }
    }
  }

  /// Opens the file at `path` for writing, creating it if there is none, and writing into it
  /// through a symbolic link (the link is kept).
  ///
  /// Only a regular file is opened: a device, a pipe or a socket is refused before anything is
  /// written to it, and without waiting for a pipe's reader. The file is emptied after that
  /// check, when `truncating`.
  ///
  /// - Returns: The descriptor, blocking.
  /// - Throws: ``RecordingFileError``.
  private static func open(_ path: String, truncating: Bool) throws(RecordingFileError) -> Int32 {
    let descriptor = systemOpen(
      path,
      O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
      0o644
    )
    guard descriptor >= 0 else {
      // A pipe without a reader, or a socket.
      if errno == ENXIO { throw RecordingFileError(path: path, problem: .notRegularFile) }
      throw RecordingFileError(path: path, problem: .system(errno))
    }
    var info = stat()
    var problem: RecordingFileError.Problem?
    if fstat(descriptor, &info) != 0 {
      problem = .system(errno)
    } else if info.st_mode & S_IFMT != S_IFREG {
      problem = .notRegularFile
    } else if fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) != 0
      || (truncating && ftruncate(descriptor, 0) != 0)
    {
      problem = .system(errno)
    }
    if let problem {
      systemClose(descriptor)
      throw RecordingFileError(path: path, problem: problem)
    }
    return descriptor
  }

  /// Closes the file; a later write reopens it and appends.
  func close() {
    storage.withLock { storage in
      try? storage.handle?.close()
      storage.handle = nil
    }
  }
}

/// Why a recording's file cannot be opened for writing.
///
/// Its ``description`` is one line: `/dev/null is not a regular file (a device, a pipe or a
/// socket)`, `/tmp/x/r.jsonl: No such file or directory`.
public struct RecordingFileError: Error, Sendable, Equatable, CustomStringConvertible,
  LocalizedError
{
  /// What is wrong with the file.
  public enum Problem: Sendable, Equatable {
    /// It is a device, a pipe, a socket or a directory: a recording is only written to a
    /// regular file.
    case notRegularFile
    /// The system refused it, with this `errno`.
    case system(Int32)
  }

  /// The file's path.
  public var path: String
  /// What is wrong with it.
  public var problem: Problem

  /// The error for `path`.
  public init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// The path and what is wrong, on one line.
  public var description: String {
    switch problem {
    case .notRegularFile: "\(path) is not a regular file (a device, a pipe or a socket)"
    case .system(let code): "\(path): \(String(cString: strerror(code)))"
    }
  }

  /// ``description``.
  public var errorDescription: String? { description }
}

/// The system's `open(2)`, which ``JSONLinesFile``'s own `open` hides inside it.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

/// The system's `close(2)`, which ``JSONLinesFile``'s own `close` hides inside it.
private func systemClose(_ descriptor: Int32) {
  _ = close(descriptor)
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// A JSON encoder writing compact, deterministic output (sorted keys, no escaped slashes).
func makeLineEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return encoder
}
