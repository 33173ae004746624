public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file writing that replaces only what it should: the file a path leads to, never a
/// symbolic link on the way, a device, a pipe, a socket or a directory.
///
/// ```swift
/// try SafeFile.write(data, to: "/tmp/tasks.json")
/// ```
///
/// The content goes to a temporary file in the target's directory, is flushed to the disk, and
/// is renamed over the target: a reader sees the old file or the new one, never a part.
public enum SafeFile {
  /// The most symbolic links followed before giving up (as the system does: `ELOOP`).
  static let linkLimit = 40

  /// The path `path` leads to through symbolic links: `path` itself unless it is a link.
  ///
  /// A link to a missing file (a dangling link) leads to that file's path, so that writing
  /// creates it. Links in the directories above the last one are kept: they lead to the same
  /// directory.
  ///
  /// - Throws: ``FileProblem`` when a link cannot be read, or links lead to links too many times.
  public static func resolvingLinks(_ path: String) throws(FileProblem) -> String {
    var current = path
    for _ in 0..<linkLimit {
      var info = stat()
      // Missing or unreachable: this is the file to write (what fails is reported then).
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = buffer.withUnsafeMutableBufferPointer { bytes in
        bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          readlink(current, $0, bytes.count - 1)
        }
      }
      guard count >= 0 else { throw FileProblem(errno: errno, path: current) }
      let destination = String(decoding: buffer[0..<count], as: UTF8.self)
      current =
        destination.hasPrefix("/")
        ? destination
        : URL(fileURLWithPath: current).deletingLastPathComponent()
          .appendingPathComponent(destination).path
    }
    throw FileProblem(errno: ELOOP, path: path)
  }

  /// Replaces the content of the file `path` leads to with `data`.
  ///
  /// A symbolic link stays a link and its target gets the content (a dangling link's target is
  /// created). An existing target keeps its permission bits; a new one gets `0666` less the
  /// umask. Nothing is written when the target is a directory, a device, a pipe or a socket,
  /// or its directory is missing (unless `creatingDirectories`).
  ///
  /// - Parameters:
  ///   - data: The new content.
  ///   - path: The file, or a link to it.
  ///   - creatingDirectories: Whether a missing directory of the target is created, with those
  ///     above it.
  /// - Throws: ``FileProblem``, and the target is as it was.
  public static func write(
    _ data: Data,
    to path: String,
    creatingDirectories: Bool = false
  ) throws(FileProblem) {
    let target = try resolvingLinks(path)
    var info = stat()
    let exists = stat(target, &info) == 0
    if exists {
      if info.st_mode & S_IFMT == S_IFDIR {
        throw FileProblem(.isDirectory, reason: "it is a directory")
      }
      guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
    } else if errno != ENOENT {
      throw FileProblem(errno: errno, path: target)
    }
    let url = URL(fileURLWithPath: target)
    let directory = url.deletingLastPathComponent().path
    if creatingDirectories && !FileProblem.isDirectory(directory) {
      do {
        try FileManager.default.createDirectory(
          atPath: directory,
          withIntermediateDirectories: true
        )
      } catch {
        throw FileProblem(error, path: directory)
      }
    }
    let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let code = errno
      // A directory that exists but takes no new file (`/proc`).
      if code == ENOENT, FileProblem.isDirectory(directory) {
        throw FileProblem(.other, reason: "no file can be created in \(directory)")
      }
      throw FileProblem(errno: code, path: target)
    }
    if exists { _ = fchmod(descriptor, info.st_mode & 0o7777) }
    var failure = FileDescriptorWriting.writeAll(data, to: descriptor)
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure == 0, rename(temporary, target) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw FileProblem(errno: failure, path: target)
    }
  }
}

/// Writing whole buffers to a file descriptor, with as many `write(2)` calls as it takes.
public enum FileDescriptorWriting {
  /// Writes all of `data` to `descriptor`, again after `EINTR` and after a partial write.
  ///
  /// - Returns: `0`, or the `errno` of the failure (`EIO` for a write that wrote nothing).
  public static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
    data.withUnsafeBytes { bytes -> Int32 in
      guard let base = bytes.baseAddress else { return 0 }
      var offset = 0
      while offset < bytes.count {
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        #elseif canImport(Musl)
        let written = Musl.write(descriptor, base + offset, bytes.count - offset)
        #else
        let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
        #endif
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if written == 0 { return EIO }
        offset += written
      }
      return 0
    }
  }
}
