import CascadeStreams
import Foundation

/// A file written one line at a time, opened on the first write.
///
/// Writes are serialised by a lock; no user code runs under it. A write that fails (the file
/// cannot be created or written) throws, and the next write tries again.
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
        let path = url.path
        // Truncate on the first opening unless appending; reopen after a failure keeps what
        // was written.
        if (!storage.opened && !append) || !FileManager.default.fileExists(atPath: path) {
          guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
          }
        }
        let handle = try FileHandle(forWritingTo: url)
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

  /// Closes the file; a later write reopens it and appends.
  func close() {
    storage.withLock { storage in
      try? storage.handle?.close()
      storage.handle = nil
    }
  }
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
