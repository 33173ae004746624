public import CascadeStore
public import CascadeStreams
public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A middleware that keeps the last inputs and states of an architecture in a bounded ring of
/// memory, and writes them as a recording when the process is about to die — a trap
/// (`fatalError`, a failed precondition), a crash, `SIGTERM` or `SIGINT` — or when asked.
///
/// The file is a `RecordingMiddleware` recording with states: `cascade-inspect FILE` opens it,
/// and its last step is the state before the crash. It starts with the oldest state the ring
/// still holds, and each input after it (for a reactor, each action, and each mutation with
/// the state after it), effects' outcomes included.
///
/// ```swift
/// let flight = try FlightRecorder<Action, AppState>(file: URL(fileURLWithPath: "/tmp/flight.jsonl"))
/// let store = Store(initialState: AppState(), middlewares: [flight], reducer: reduce)
/// // … the app traps: /tmp/flight.jsonl holds its last inputs and states.
/// try flight.write()  // or now, on demand
/// ```
///
/// **Memory.** `2 × capacity` bytes (8 MiB at the default capacity, 4 MiB), allocated when the
/// recorder is made and kept until the process ends, even after the recorder is released (the
/// crash handler may be reading them); make one per architecture, not one per test. Each line
/// takes its length plus 5 bytes; a line larger than the whole ring is left out
/// (``droppedLines``).
///
/// **Cost.** The input and the state after it are encoded as JSON on every input, on the
/// architecture's processing thread: a debugging aid, like a recording with states.
///
/// **The crash path** is safe in a signal handler: it allocates nothing and takes no lock the
/// crashing thread may hold — the lines are encoded when recorded, and the handler only copies
/// bytes and calls `open`, `write` and `close`. After writing, the signal goes on to the action
/// it had (by default, the process dies of it as it would have). A signal the process ignores
/// (an app that handles `SIGTERM` itself) is left to it; call ``write()`` there. A stack
/// overflow is not caught: its handler would have no stack to run on.
public final class FlightRecorder<Input: Sendable, State: Sendable>: Middleware {
  private let ring: FlightRing
  private let encodeInput: @Sendable (Input) throws -> Data?
  private let encodeState: @Sendable (State) throws -> Data
  private let now: @Sendable () -> SchedulerInstant
  /// Encodes a reactor's mutations.
  private let mutationEncoder = makeLineEncoder()
  /// The records' sequence, and whether the state before the first input was kept: only
  /// touched under the ring's writers' lock.
  private let progress = LockedValue(Progress())

  private struct Progress {
    var sequence: UInt64 = 0
    var keptFirstState = false
  }

  /// The default capacity: 4 MiB.
  public static var defaultCapacity: Int { 4 << 20 }

  /// Creates a recorder keeping `capacity` bytes of lines, whose recorded form of an input is
  /// `encodeInput`'s (`nil`: the input is not recorded).
  ///
  /// - Parameters:
  ///   - url: The file written on a crash or by ``write()``: created, or replaced if it is a
  ///     regular file. A device, a pipe, a socket or a directory is refused now.
  ///   - capacity: The ring's size in bytes (at least 1 KiB).
  ///   - dumpsOnCrash: Whether a fatal signal writes the file (the crash handler is installed
  ///     with the first recorder that asks for it).
  ///   - now: The clock of the records' times; by default the time since this call.
  ///   - encodeInput: The recorded form of an input.
  ///   - encodeState: The state as JSON.
  /// - Throws: ``RecordingFileError`` when `url` names something that is not a regular file, or
  ///   a directory that does not exist.
  public init(
    file url: URL,
    capacity: Int = FlightRecorder.defaultCapacity,
    dumpsOnCrash: Bool = true,
    now: (@Sendable () -> SchedulerInstant)? = nil,
    encodeInput: @escaping @Sendable (Input) throws -> Data?,
    encodeState: @escaping @Sendable (State) throws -> Data
  ) throws(RecordingFileError) {
    try RecordingFileError.check(url.path)
    ring = FlightRing(capacity: max(1_024, capacity), path: url.path)
    self.encodeInput = encodeInput
    self.encodeState = encodeState
    self.now = now ?? RecordingMiddleware<Int, Int>.elapsedSinceNow()
    if dumpsOnCrash {
      ring.dumpsOnCrash.store(true, ordering: .releasing)
      FlightCrashDump.register(ring)
    }
  }

  deinit {
    // The ring stays (the handler may be reading it); it is no longer written on a crash.
    ring.dumpsOnCrash.store(false, ordering: .releasing)
  }

  /// How many lines were left out because they were larger than the whole ring.
  public var droppedLines: Int { ring.dropped.load(ordering: .relaxed) }

  /// Keeps `input`'s line (and, before the first one, the state it is reduced from), and lets
  /// it through unchanged.
  public func intercept(_ input: Input, state: State) -> Input? {
    let encoded = try? encodeInput(input)
    let first = progress.withLock { $0.keptFirstState } ? nil : try? encodeState(state)
    let time = now()
    progress.withLock { progress in
      if !progress.keptFirstState, let first {
        progress.keptFirstState = true
        keep(.state, Self.stateLine(first))
      }
      guard let encoded else { return }
      progress.sequence &+= 1
      keep(.input, recordingLine(sequence: progress.sequence, time: time, input: encoded))
    }
    return input
  }

  /// Keeps a reactor's mutation with its action, then the state after the input.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let time = now()
    var mutationLine: (input: Data, mutation: Data)?
    if let mutation = record.mutation {
      guard let encodable = mutation as? any Encodable,
        let input = try? encodeInput(record.input),
        let encoded = try? mutationEncoder.encode(encodable)
      else { return }
      mutationLine = (input, encoded)
    }
    guard let state = try? encodeState(record.state) else { return }
    progress.withLock { progress in
      if let mutationLine {
        progress.sequence &+= 1
        keep(
          .input,
          recordingLine(
            sequence: progress.sequence,
            time: time,
            input: mutationLine.input,
            mutation: mutationLine.mutation
          )
        )
      }
      progress.keptFirstState = true
      keep(.state, Self.stateLine(state))
    }
  }

  /// Writes the recording now, to the recorder's file.
  ///
  /// - Throws: ``RecordingFileError`` when the file cannot be opened or written.
  public func write() throws(RecordingFileError) {
    let path = String(cString: ring.path)
    let descriptor = FlightFile.open(ring.path)
    guard descriptor >= 0 else {
      let code = errno
      try RecordingFileError.check(path)
      throw RecordingFileError(path: path, problem: .system(code))
    }
    var written = FlightFile.writeHeader(descriptor)
    ring.withEntries { _, line in
      written =
        written && FlightFile.write(descriptor, line)
        && FlightFile.writeNewline(descriptor)
    }
    let code = errno
    _ = close(descriptor)
    if !written { throw RecordingFileError(path: path, problem: .system(code)) }
  }

  /// Writes the file as the crash handler does, without the writers' lock: for tests, with no
  /// input being recorded meanwhile.
  func writeAsOnCrash() -> Bool { ring.dumpFromSignalHandler() }

  /// Keeps one line; called under `progress`'s lock, the ring's writers' lock.
  private func keep(_ kind: FlightRing.Kind, _ line: Data) {
    ring.writers.withLock { _ in
      line.withUnsafeBytes { ring.append(kind, $0) }
    }
  }

  private static func stateLine(_ state: Data) -> Data {
    var line = Data(#"{"state":"#.utf8)
    line.append(state)
    line.append(UInt8(ascii: "}"))
    return line
  }
}

extension FlightRecorder where Input: Encodable, State: Encodable {
  /// Creates a recorder keeping the last `capacity` bytes of inputs and states, written to
  /// `url` on a crash or by ``write()``.
  ///
  /// - Parameters:
  ///   - url: The file: created, or replaced if it is a regular file. A device, a pipe, a
  ///     socket or a directory is refused now.
  ///   - capacity: The ring's size in bytes (at least 1 KiB); the recorder takes twice that.
  ///   - dumpsOnCrash: Whether a fatal signal writes the file.
  ///   - now: The clock of the records' times; by default the time since this call.
  /// - Throws: ``RecordingFileError`` when `url` names something that is not a regular file, or
  ///   a directory that does not exist.
  public convenience init(
    file url: URL,
    capacity: Int = FlightRecorder.defaultCapacity,
    dumpsOnCrash: Bool = true,
    now: (@Sendable () -> SchedulerInstant)? = nil
  ) throws(RecordingFileError) {
    let inputEncoder = makeLineEncoder()
    let stateEncoder = makeLineEncoder()
    try self.init(
      file: url,
      capacity: capacity,
      dumpsOnCrash: dumpsOnCrash,
      now: now,
      encodeInput: { try inputEncoder.encode($0) },
      encodeState: { try stateEncoder.encode($0) }
    )
  }
}

extension RecordingFileError {
  /// Checks that `path` can be a recording's file, creating and writing nothing.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``RecordingFileError`` when `path` names something other than a regular file (a
  ///   device, a pipe, a socket, a directory), or a file in a directory that does not exist.
  public static func check(_ path: String) throws(RecordingFileError) {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFREG else {
        throw RecordingFileError(path: path, problem: .notRegularFile)
      }
      return
    }
    let directory = (path as NSString).deletingLastPathComponent
    var parent = stat()
    guard stat(directory.isEmpty ? "." : directory, &parent) == 0 else {
      throw RecordingFileError(path: path, problem: .system(errno))
    }
    guard parent.st_mode & S_IFMT == S_IFDIR else {
      throw RecordingFileError(path: path, problem: .system(ENOTDIR))
    }
  }
}
