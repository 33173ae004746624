import CascadeStreams
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of a ``FlightRecorder``: the last lines of a recording in a ring of bytes, and
/// what writes them out — on demand, or from a signal handler when the process is about to die.
///
/// Each entry is one line of a `RecordingMiddleware` file with states: a kind byte (an input's
/// line, or a state's), its length (4 bytes, little-endian), then the line. An entry that does
/// not fit pushes out the oldest ones. Positions are logical (they only grow); an entry's bytes
/// are at its position modulo the capacity, wrapping at the end.
///
/// **The crash path** (``dumpFromSignalHandler()``) allocates nothing and takes no lock: it
/// reads the two published positions, copies the entries between them into a scratch buffer
/// allocated with the ring, reads the start again (entries a writer pushed out meanwhile may be
/// torn, and are left out), and writes the file with `open`, `write` and `close`, all
/// async-signal-safe. A writer publishes the start before it overwrites anything, and the end
/// only once an entry is complete, so the entries between the two are whole.
///
/// A ring is never freed: it stays in the list the crash handler walks, so that a handler
/// running while a recorder is released never reads freed memory. Its memory is
/// `2 × capacity` bytes plus the path.
final class FlightRing: @unchecked Sendable {
  // Safety: `bytes`, `scratch` and `path` are allocated in `init` and never freed (the ring is
  // never released: `FlightCrashDump` keeps it). `bytes` is written only under `writers` (the
  // appends, `withEntries`); the crash handler reads it without the lock, between the published
  // `start` and `end`, and writes only `scratch` (one dump at a time: `FlightCrashDump.dumping`).
  // Proven by FlightRecorderConcurrencyTests (under ThreadSanitizer and AddressSanitizer in CI)
  // and by a sample that crashes on purpose (FlightRecorderCrashTests).

  /// What an entry holds.
  enum Kind: UInt8 {
    /// A record's line: an input, or a reactor's mutation with its action.
    case input = 1
    /// The state after the input before it, `{"state":…}`.
    case state = 2
  }

  /// The bytes an entry takes beyond its line: its kind and length.
  static let entryHeader = 5

  /// The ring's size in bytes: the most its entries take.
  let capacity: Int
  private let bytes: UnsafeMutableRawPointer
  private let scratch: UnsafeMutableRawPointer
  /// The file's path, NUL-terminated.
  let path: UnsafeMutablePointer<CChar>
  /// The logical position of the oldest entry.
  private let start = Atomic<Int>(0)
  /// The logical position after the newest complete entry.
  private let end = Atomic<Int>(0)
  /// The next ring in the crash handler's list (`FlightCrashDump`), as a pointer's bits.
  let next = Atomic<UInt>(0)
  /// Whether a crash writes this ring's file; a released recorder's ring says no.
  let dumpsOnCrash = Atomic<Bool>(false)
  /// How many lines were left out because they were larger than the whole ring.
  let dropped = Atomic<Int>(0)
  /// Serialises the writers (appends, and on-demand dumps).
  let writers = LockedValue(())
  /// Whether `scratch` is in use: a crash while an on-demand dump uses it leaves this ring out.
  private let scratchInUse = Atomic<Bool>(false)

  init(capacity: Int, path: String) {
    self.capacity = capacity
    bytes = .allocate(byteCount: capacity, alignment: 8)
    scratch = .allocate(byteCount: capacity, alignment: 8)
    let utf8 = Array(path.utf8CString)
    self.path = .allocate(capacity: utf8.count)
    self.path.initialize(from: utf8, count: utf8.count)
  }

  // MARK: - Writing (under `writers`)

  /// Appends one entry, pushing out the oldest ones to make room.
  ///
  /// Called under `writers`.
  func append(_ kind: Kind, _ line: UnsafeRawBufferPointer) {
    let size = Self.entryHeader + line.count
    guard size <= capacity, line.count <= Int(UInt32.max) else {
      dropped.add(1, ordering: .relaxed)
      return
    }
    var first = start.load(ordering: .relaxed)
    let last = end.load(ordering: .relaxed)
    while last + size - first > capacity {
      first += Self.entryHeader + Int(length(at: first))
      // Published before the bytes are overwritten: a reader leaves out what it pushed out.
      start.store(first, ordering: .releasing)
    }
    var header: (UInt8, UInt8, UInt8, UInt8, UInt8) = (
      kind.rawValue, UInt8(truncatingIfNeeded: line.count),
      UInt8(truncatingIfNeeded: line.count >> 8), UInt8(truncatingIfNeeded: line.count >> 16),
      UInt8(truncatingIfNeeded: line.count >> 24)
    )
    withUnsafeBytes(of: &header) { copyIn($0, at: last) }
    copyIn(line, at: last + Self.entryHeader)
    end.store(last + size, ordering: .releasing)
  }

  /// Copies `source` into the ring at logical `position`, wrapping at the end.
  private func copyIn(_ source: UnsafeRawBufferPointer, at position: Int) {
    guard let base = source.baseAddress, !source.isEmpty else { return }
    let offset = position % capacity
    let first = min(source.count, capacity - offset)
    (bytes + offset).copyMemory(from: base, byteCount: first)
    if first < source.count {
      bytes.copyMemory(from: base + first, byteCount: source.count - first)
    }
  }

  /// The length of the entry at logical `position` of the ring, wrapping at the capacity.
  private func length(at position: Int) -> UInt32 {
    var value: UInt32 = 0
    for index in 0..<4 {
      let offset = (position + 1 + index) % capacity
      value |= UInt32(bytes.load(fromByteOffset: offset, as: UInt8.self)) << (8 * index)
    }
    return value
  }

  // MARK: - Reading

  /// Calls `body` with the entries, oldest first, from the first state on (the state the
  /// steps after it start from), under `writers`.
  func withEntries(_ body: (Kind, UnsafeRawBufferPointer) -> Void) {
    writers.withLock { _ in
      scratchInUse.store(true, ordering: .sequentiallyConsistent)
      defer { scratchInUse.store(false, ordering: .sequentiallyConsistent) }
      let first = start.load(ordering: .relaxed)
      let count = end.load(ordering: .relaxed) - first
      copyOut(from: first, count: count, into: scratch)
      Self.entries(in: UnsafeRawBufferPointer(start: scratch, count: count), from: 0, body)
    }
  }

  /// Copies `count` bytes from logical `position` into `target`, unwrapped.
  private func copyOut(from position: Int, count: Int, into target: UnsafeMutableRawPointer) {
    guard count > 0 else { return }
    let offset = position % capacity
    let first = min(count, capacity - offset)
    target.copyMemory(from: bytes + offset, byteCount: first)
    if first < count {
      (target + first).copyMemory(from: bytes, byteCount: count - first)
    }
  }

  /// The entries of an unwrapped copy from byte `offset` on, from the first state entry;
  /// stops at an entry whose length runs past the copy.
  private static func entries(
    in copy: UnsafeRawBufferPointer,
    from offset: Int,
    _ body: (Kind, UnsafeRawBufferPointer) -> Void
  ) {
    var offset = offset
    var started = false
    while offset + entryHeader <= copy.count {
      var length = 0
      for index in 0..<4 { length |= Int(copy[offset + 1 + index]) << (8 * index) }
      guard length <= copy.count - offset - entryHeader,
        let kind = Kind(rawValue: copy[offset])
      else { return }
      if kind == .state { started = true }
      if started {
        body(kind, UnsafeRawBufferPointer(rebasing: copy[(offset + entryHeader)...].prefix(length)))
      }
      offset += entryHeader + length
    }
  }

  // MARK: - The crash path

  /// Writes the ring's file from a signal handler, and returns whether it was written.
  ///
  /// No allocation, no lock (see the type's comment).
  @discardableResult
  func dumpFromSignalHandler() -> Bool {
    guard !scratchInUse.exchange(true, ordering: .sequentiallyConsistent) else { return false }
    defer { scratchInUse.store(false, ordering: .sequentiallyConsistent) }
    let first = start.load(ordering: .acquiring)
    let last = end.load(ordering: .acquiring)
    let count = last - first
    guard count >= 0, count <= capacity else { return false }
    copyOut(from: first, count: count, into: scratch)
    // Entries pushed out while they were copied may be torn: start after them. The fence orders
    // the copy's reads before this second read of the start (as a sequence lock's reader does):
    // a writer publishes the start before it overwrites.
    atomicMemoryFence(ordering: .acquiring)
    let skip = start.load(ordering: .acquiring) - first
    guard skip <= count else { return false }
    let descriptor = FlightFile.open(path)
    guard descriptor >= 0 else { return false }
    var written = FlightFile.writeHeader(descriptor)
    let copy = UnsafeRawBufferPointer(start: scratch, count: count)
    Self.entries(in: copy, from: skip) { _, line in
      written = written && FlightFile.write(descriptor, line) && FlightFile.writeNewline(descriptor)
    }
    _ = close(descriptor)
    return written
  }
}

/// The flight recorder's file, written with async-signal-safe calls only.
enum FlightFile {
  /// The header line of a recording, `{"cascadeRecording":1}` and a newline, as static bytes.
  static let header: StaticString = "{\"cascadeRecording\":1}\n"
  static let newline: StaticString = "\n"

  /// Opens `path` for writing, creating it: only a regular file, emptied; -1 otherwise.
  static func open(_ path: UnsafePointer<CChar>) -> Int32 {
    let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return -1 }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) == 0,
      ftruncate(descriptor, 0) == 0
    else {
      _ = close(descriptor)
      return -1
    }
    return descriptor
  }

  static func writeHeader(_ descriptor: Int32) -> Bool {
    write(
      descriptor,
      UnsafeRawBufferPointer(start: header.utf8Start, count: header.utf8CodeUnitCount)
    )
  }

  static func writeNewline(_ descriptor: Int32) -> Bool {
    write(
      descriptor,
      UnsafeRawBufferPointer(start: newline.utf8Start, count: newline.utf8CodeUnitCount)
    )
  }

  /// Writes all of `bytes`, again after a partial write or an interruption (at most 1,000
  /// tries); `false` if the system refuses.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var next = bytes.baseAddress else { return true }
    var left = bytes.count
    var tries = 0
    while left > 0, tries < 1_000 {
      tries += 1
      let count = systemWrite(descriptor, next, left)
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      next += count
      left -= count
    }
    return left == 0
  }
}

/// The system's `open(2)` with mode 0644.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
  open(path, flags, 0o644)
}

/// The system's `write(2)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
