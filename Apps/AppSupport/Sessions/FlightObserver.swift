public import CascadeMiddleware
public import CascadeStore
import CascadeStreams
public import Foundation

/// A flight recorder on a session's container (`rpg play --flight-recorder FILE`).
///
/// It keeps the container's last inputs and states, written to `file` as a recording with
/// states when the process dies — a trap, a crash, `SIGTERM`, `SIGINT` — or by ``write()``.
/// `cascade-inspect FILE` opens it at the state before the end.
///
/// See CascadeMiddleware's `FlightRecorder` for what is kept, the memory it takes (twice
/// `capacity`) and the crash path.
public final class FlightObserver: SessionObserver {
  /// The file.
  public let file: URL
  /// The ring's size in bytes.
  public let capacity: Int
  /// The write of the last recorder made: it returns why it failed, if it did.
  private let writer = LockedValue<(@Sendable () -> RecordingFileError?)?>(nil)

  /// A flight recorder writing `file`, checked now.
  ///
  /// - Throws: `RecordingFileError` when `file` names something other than a regular file, or a
  ///   file in a directory that does not exist.
  public init(file: URL, capacity: Int = 4 << 20) throws(RecordingFileError) {
    try RecordingFileError.check(file.path)
    self.file = file
    self.capacity = capacity
  }

  /// A flight recorder on `Container`'s inputs (each recorded as `encode` makes it) and states.
  public func watch<Container: ArchitectureContainer>(
    _ container: Container.Type,
    encoding encode: @escaping @Sendable (Container.Input) -> (any Encodable & Sendable)?,
    remaking remake: @escaping @Sendable (any Encodable & Sendable) -> Container.Input?,
    isEffectOutcome: @escaping @Sendable (Container.Input, (any Sendable)?) -> Bool,
    fresh: @escaping @Sendable () -> Container,
    restoring restore: (@Sendable (Container.State) -> Container)?
  ) -> any Middleware<Container.Input, Container.State> where Container.State: Encodable {
    let inputs = JSONEncoder()
    inputs.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let states = JSONEncoder()
    states.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      let recorder = try FlightRecorder<Container.Input, Container.State>(
        file: file,
        capacity: capacity,
        encodeInput: { input in try encode(input).map { try inputs.encode($0) } },
        encodeState: { state in try states.encode(state) }
      )
      writer.withLock { writer in
        writer = {
          do throws(RecordingFileError) {
            try recorder.write()
            return nil
          } catch {
            return error
          }
        }
      }
      return recorder
    } catch {
      // Checked in `init`; a file replaced since by something else is left as it is.
      return ClosureMiddleware<Container.Input, Container.State>(process: { _ in })
    }
  }

  /// Writes the file now, from the recorder of the last container watched.
  ///
  /// - Throws: `RecordingFileError` when the file cannot be opened or written.
  public func write() throws(RecordingFileError) {
    guard let write = writer.withLock({ $0 }) else { return }
    if let error = write() { throw error }
  }
}
