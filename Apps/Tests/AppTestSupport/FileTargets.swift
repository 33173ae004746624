import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, without following a symbolic link: for tests that check a command wrote
/// into a file and replaced nothing it should not (a link, a pipe, a device).
public enum FileKind: Sendable, Equatable {
  /// Nothing.
  case missing
  /// A regular file.
  case regular
  /// A directory.
  case directory
  /// A symbolic link.
  case symbolicLink
  /// A named pipe (FIFO).
  case fifo
  /// A character device (`/dev/null`).
  case characterDevice
  /// Anything else (a block device, a socket).
  case other

  /// What is at `path` now (`lstat`).
  public init(atPath path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      self = .missing
      return
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .fifo
    case S_IFCHR: self = .characterDevice
    default: self = .other
    }
  }
}

/// Makes a named pipe (FIFO) at `path`, as `mkfifo` does.
///
/// - Throws: `POSIXError` when it cannot be made.
public func makeFIFO(atPath path: String) throws {
  guard mkfifo(path, 0o644) == 0 else {
    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
  }
}

/// Makes a symbolic link at `path` that leads to `destination`.
public func makeLink(atPath path: String, to destination: String) throws {
  try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
}
