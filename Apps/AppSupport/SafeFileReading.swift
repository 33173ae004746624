public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SafeFile {
  /// Reads the whole regular file at `path` (through symbolic links).
  ///
  /// A device, a pipe, a socket or a directory is refused at once: `Data(contentsOf:)` waits
  /// forever for the writer of a pipe nobody writes to, and reads a device such as `/dev/zero`
  /// until memory runs out.
  ///
  /// ```swift
  /// let data = try SafeFile.read("save.json")  // FileProblem.notRegularFile for a FIFO
  /// ```
  ///
  /// - Throws: ``FileProblem``.
  public static func read(_ path: String) throws(FileProblem) -> Data {
    let descriptor = try openRegularFile(path)
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      return try handle.readToEnd() ?? Data()
    } catch {
      throw FileProblem(error, path: path)
    }
  }

  /// Refuses `path` unless it is a regular file that can be opened for reading (through
  /// symbolic links), without waiting for a pipe's writer.
  ///
  /// For a reader that maps the file instead of reading it (``read(_:)`` otherwise).
  ///
  /// - Returns: The file's size in bytes (an empty file is best not mapped: Foundation's
  ///   `Data(contentsOf:options: .alwaysMapped)` reads a file of size 0 as one whose size is
  ///   unknown, and leaks its buffer).
  /// - Throws: ``FileProblem``.
  @discardableResult
  public static func requireRegularFile(_ path: String) throws(FileProblem) -> Int {
    let descriptor = try openRegularFile(path)
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw FileProblem(errno: errno, path: path) }
    return Int(info.st_size)
  }

  /// Opens `path` for reading, and returns its descriptor if it is a regular file.
  private static func openRegularFile(_ path: String) throws(FileProblem) -> Int32 {
    // O_NONBLOCK: opening a pipe without a writer returns at once (then refused below).
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw FileProblem(errno: errno, path: path) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw FileProblem(errno: code, path: path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      // Reads block as usual from here (a regular file never waits, but say it).
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      return descriptor
    case S_IFDIR:
      close(descriptor)
      throw FileProblem(.isDirectory, reason: "it is a directory")
    default:
      close(descriptor)
      throw .notRegularFile
    }
  }
}
