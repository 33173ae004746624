import CascadeMiddleware
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read or written, in plain words: what the apps print after
/// `cannot … PATH:`, never a Foundation error's domain and code.
///
/// ```swift
/// do { try data.write(to: url) } catch {
///   print("cannot write \(url.path): \(FileProblem(error, path: url.path))")
///   // cannot write /tmp/x/y: there is no directory /tmp/x
/// }
/// ```
public struct FileProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of problem, for choosing an exit status.
  public enum Kind: Sendable, Equatable {
    /// There is no such file.
    case missing
    /// The file's directory does not exist (or a part of the path is not a directory).
    case missingDirectory
    /// The file may not be read or written.
    case permissionDenied
    /// The path is a directory.
    case isDirectory
    /// The path is a device, a pipe or a socket.
    case notRegularFile
    /// Another failure of the system (a full disk, a read-only file system…).
    case other
  }

  /// The kind of problem.
  public var kind: Kind
  /// The words that say it, without the path: `there is no such file`.
  public var reason: String
  /// ``reason``.
  public var description: String { reason }

  /// The words for one of the apps' own refusals, of `kind`.
  public init(_ kind: Kind, reason: String) {
    self.kind = kind
    self.reason = reason
  }

  /// The words for a device, a pipe or a socket where a regular file is needed.
  public static let notRegularFile = FileProblem(
    .notRegularFile,
    reason: "it is not a regular file (a device, a pipe or a socket)"
  )

  /// The problem a system call reported with `errno` for `path`.
  ///
  /// A missing file whose directory is missing names the directory.
  public init(errno code: Int32, path: String) {
    switch code {
    case ENOENT:
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      if Self.isDirectory(directory) {
        self.init(.missing, reason: "there is no such file")
      } else {
        self.init(.missingDirectory, reason: "there is no directory \(directory)")
      }
    case ENOTDIR: self.init(.missingDirectory, reason: "a part of the path is not a directory")
    case EACCES, EPERM:
      // Foundation refuses to read a device or a pipe with EACCES, readable as it may be.
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR
      {
        self = .notRegularFile
      } else {
        self.init(.permissionDenied, reason: "permission denied")
      }
    case EISDIR: self.init(.isDirectory, reason: "it is a directory")
    // A pipe without a reader or a socket, opened without blocking.
    case ENXIO, ENODEV: self = .notRegularFile
    default: self.init(.other, reason: String(cString: strerror(code)).lowercased())
    }
  }

  /// The problem `error` (thrown by Foundation or a system call on `path`) stands for.
  ///
  /// The POSIX error under a Foundation error gives the words; without one, what `path` is now
  /// (missing, a directory, not a regular file, unreadable) does.
  public init(_ error: any Error, path: String) {
    if let problem = error as? FileProblem {
      self = problem
    } else if let error = error as? RecordingFileError {
      switch error.problem {
      case .notRegularFile: self = .notRegularFile
      case .system(let code): self.init(errno: code, path: path)
      }
    } else if let code = Self.posixCode(of: error) {
      self.init(errno: code, path: path)
    } else {
      self.init(describing: path)
    }
  }

  /// Whether `error` is about a file: one of the system's or Foundation's file errors.
  public static func isFileError(_ error: any Error) -> Bool {
    error is FileProblem || error is RecordingFileError || posixCode(of: error) != nil
      || (error as NSError).domain == NSCocoaErrorDomain
  }

  /// The POSIX error code in `error` or under it, if any.
  static func posixCode(of error: any Error) -> Int32? {
    if let error = error as? POSIXError { return error.code.rawValue }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
      return posixCode(of: underlying)
    }
    guard error.domain == NSCocoaErrorDomain else { return nil }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
    case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
    case .fileWriteVolumeReadOnly: return EROFS
    case .fileWriteOutOfSpace: return ENOSPC
    case .fileWriteFileExists: return EEXIST
    default: return nil
    }
  }

  /// What is wrong with `path` as it is now, for an error that does not say.
  private init(describing path: String) {
    var info = stat()
    if stat(path, &info) != 0 {
      self.init(errno: errno, path: path)
    } else if info.st_mode & S_IFMT == S_IFDIR {
      self.init(.isDirectory, reason: "it is a directory")
    } else if info.st_mode & S_IFMT != S_IFREG {
      self = .notRegularFile
    } else if access(path, R_OK) != 0 {
      self.init(.permissionDenied, reason: "permission denied")
    } else {
      self.init(.other, reason: "it could not be read or written")
    }
  }

  /// Whether `path` is a directory (following symbolic links).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
