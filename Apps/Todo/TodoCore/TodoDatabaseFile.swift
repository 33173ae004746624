import AppSupport
public import Foundation

/// What a database file is, found out before SQLite opens it, so that a file todo cannot use is
/// refused with its own message and left untouched (SQLite would not even create its journal
/// beside it).
///
/// Only reads: the file's type, size and permissions, and its first bytes.
struct TodoDatabaseFile {
  /// The file exists and is empty (zero bytes).
  var isEmpty: Bool
  /// The file cannot be written: the process may not write it, or no one may (it has no write
  /// permission bit; honoured for the superuser too, who may write anything).
  var isReadOnly: Bool

  /// The first bytes of every SQLite database.
  static let magic = Data("SQLite format 3\0".utf8)

  /// What the file at `path` is, or `nil` if there is none (a directory to create it in exists).
  ///
  /// - Throws: ``TodoDatabaseError`` when the path cannot be a Todo database: a directory,
  ///   another kind of file, an unreadable file, a missing directory, text, bytes that are not
  ///   SQLite, a truncated SQLite file.
  static func inspect(
    _ path: String,
    lookingAgain: Bool = false
  ) throws(TodoDatabaseError) -> TodoDatabaseFile? {
    let files = FileManager.default
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try files.attributesOfItem(atPath: path)
    } catch let error as CocoaError where error.code == .fileReadNoPermission {
      throw .unreadable(path: path)
    } catch {
      if files.fileExists(atPath: path) {
        // Another process created the file between the two calls (two `todo` processes
        // starting on a new database): look at it again, once.
        guard lookingAgain else { return try inspect(path, lookingAgain: true) }
        throw .cannotOpen(path: path, detail: FileProblem(error, path: path).reason)
      }
      // No file: it can be created if its directory exists.
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      guard files.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
      else { throw .missingDirectory(path: path, directory: directory) }
      return nil
    }
    let type = attributes[.type] as? FileAttributeType
    if type == .typeDirectory { throw .isDirectory(path: path) }
    guard type == .typeRegular else { throw .notAFile(path: path) }
    let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o644
    guard files.isReadableFile(atPath: path), permissions & 0o444 != 0 else {
      throw .unreadable(path: path)
    }
    let isReadOnly = !files.isWritableFile(atPath: path) || permissions & 0o222 == 0
    let (size, head) = try read(path)
    if size == 0 { return TodoDatabaseFile(isEmpty: true, isReadOnly: isReadOnly) }
    guard head.starts(with: magic) else {
      throw isText(head) ? .textFile(path: path) : .notSQLite(path: path)
    }
    if let expected = try truncation(path, size: size, head: head) {
      throw .truncated(path: path, size: size, expected: expected)
    }
    return TodoDatabaseFile(isEmpty: false, isReadOnly: isReadOnly)
  }

  /// The file's size and its first 4 KiB (or fewer).
  private static func read(_ path: String) throws(TodoDatabaseError) -> (Int, Data) {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
    defer { try? handle.close() }
    do {
      let head = try handle.read(upToCount: 4096) ?? Data()
      let size = Int(try handle.seekToEnd())
      return (size, head)
    } catch {
      throw .cannotOpen(path: path, detail: FileProblem(error, path: path).reason)
    }
  }

  /// How much the file at `path` falls short of what its header promises: `.some(nil)` when
  /// even the header is cut, `.some(size)` for the size the header promises, `nil` when it is
  /// whole.
  ///
  /// SQLite's header records the page size and, when valid, the number of pages. While a
  /// non-empty write-ahead log exists another process may be checkpointing (it writes the header
  /// before the file grows): the file is not judged then, and a shortfall is confirmed by a
  /// second look.
  private static func truncation(
    _ path: String,
    size: Int,
    head: Data
  ) throws(TodoDatabaseError) -> Int?? {
    guard shortfall(size: size, head: head) != nil else { return nil }
    let log = path + "-wal"
    if let attributes = try? FileManager.default.attributesOfItem(atPath: log),
      ((attributes[.size] as? NSNumber)?.intValue ?? 0) > 0
    {
      return nil
    }
    let (sizeNow, headNow) = try read(path)
    return shortfall(size: sizeNow, head: headNow)
  }

  /// What ``truncation(_:size:head:)`` reports, from one look at the file.
  private static func shortfall(size: Int, head: Data) -> Int?? {
    guard head.count >= 100, size >= 100 else { return .some(nil) }
    guard let expected = SQLiteHeader(head).expectedSize, size < expected else { return nil }
    return .some(expected)
  }

  /// Whether `bytes` (the start of a file) read as text: UTF-8 with no NUL byte (a character
  /// cut at the end of the sample is allowed).
  static func isText(_ bytes: Data) -> Bool {
    guard !bytes.isEmpty, !bytes.contains(0) else { return false }
    for cut in 0...min(3, bytes.count - 1)
    where String(validating: bytes.dropLast(cut), as: UTF8.self) != nil {
      return true
    }
    return false
  }
}

/// The fields of SQLite's 100-byte database header that tell the file's size.
struct SQLiteHeader {
  /// The page size in bytes, if valid.
  var pageSize: Int?
  /// The size the header promises (page size × page count), if its page count is valid.
  var expectedSize: Int?

  init(_ header: Data) {
    let bytes = [UInt8](header.prefix(100))
    func integer(_ offset: Int, _ count: Int) -> Int {
      bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
    let raw = integer(16, 2)
    let size = raw == 1 ? 65_536 : raw
    guard size >= 512, size <= 65_536, size & (size - 1) == 0 else { return }
    pageSize = size
    // The page count is valid when the change counter matches "version-valid-for".
    let pages = integer(28, 4)
    guard pages > 0, integer(24, 4) == integer(92, 4) else { return }
    expectedSize = pages * size
  }
}

extension TodoDatabase {
  /// Moves the file at `path` aside, so that a new database can be started at `path`.
  ///
  /// The file goes, with its write-ahead log and shared memory, to a name stamped with `now` in
  /// UTC (`todo.sqlite.damaged-20250101T120000Z`, with `-2`, `-3`… if taken). Nothing is
  /// deleted.
  ///
  /// - Returns: The path the file was moved to.
  /// - Throws: ``TodoDatabaseError/cannotCreate(path:detail:)`` when it cannot be moved.
  public static func recover(path: String, now: Date = Date()) throws(TodoDatabaseError) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let stamp = formatter.string(from: now)
    let files = FileManager.default
    var target = "\(path).damaged-\(stamp)"
    var attempt = 1
    while files.fileExists(atPath: target) || files.fileExists(atPath: target + "-wal") {
      attempt += 1
      target = "\(path).damaged-\(stamp)-\(attempt)"
    }
    do {
      for suffix in ["-wal", "-shm", ""] where files.fileExists(atPath: path + suffix) {
        try files.moveItem(atPath: path + suffix, toPath: target + suffix)
      }
    } catch {
      throw .cannotCreate(path: target, detail: FileProblem(error, path: target).reason)
    }
    return target
  }
}
