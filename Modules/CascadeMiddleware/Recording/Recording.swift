public import CascadeStreams
public import Foundation

/// A recording read back from JSON Lines: the inputs a ``RecordingMiddleware`` recorded, to
/// replay or step through.
///
/// Reading never loses what is readable: a recording whose file was cut short (the application
/// stopped mid-write) or damaged keeps every entry before the first bad line, and says which line
/// that is in ``damage``.
///
/// **Format version.** A recording file starts with a header line naming its format version,
/// `{"cascadeRecording":1}` (``formatVersion``). A file of another version — written by a later
/// Cascade — is refused, never misread: ``init(contentsOf:)`` throws a ``RecordingDamage`` whose
/// reason is ``RecordingDamage/Reason/unsupportedVersion(found:supported:)``, naming both
/// versions. A recording without a header (an in-memory ``RecordingBuffer``, or a file written
/// before the header existed) is read as version 1.
///
/// ```swift
/// let recording = try Recording<Action>(contentsOf: url)
/// if let damage = recording.damage {
///   print(damage)  // line 42: truncated: …
/// }
/// let store = Store(initialState: AppState(), reducer: reduce)
/// recording.replay(into: store.send)
/// ```
public struct Recording<Input: Decodable & Sendable>: Sendable {
  /// One recorded input.
  public struct Entry: Sendable {
    /// The input's sequence number in the recording.
    public var sequence: UInt64
    /// When it was recorded, on the recorder's clock.
    public var time: SchedulerInstant
    /// The input; for a reactor's mutation (``isMutation``), the action that produced it.
    public var input: Input
    /// The line of a reactor's mutation, decoded on demand by ``mutation(as:)``: the recording
    /// does not know the reactor's `Mutation` type.
    var mutationLine: Data?

    /// Creates an entry.
    public init(sequence: UInt64, time: SchedulerInstant, input: Input) {
      self.sequence = sequence
      self.time = time
      self.input = input
    }

    /// Whether the entry records a reactor's mutation (produced by ``input``), not an input.
    public var isMutation: Bool { mutationLine != nil }

    /// The reactor's mutation this entry records, or `nil` if it records an input.
    ///
    /// - Throws: A `DecodingError` if the mutation is not a `Mutation`.
    public func mutation<Mutation: Decodable>(as type: Mutation.Type) throws -> Mutation? {
      guard let mutationLine else { return nil }
      return try JSONDecoder().decode(MutationLine<Mutation>.self, from: mutationLine).mutation
    }
  }

  /// The version of the recording format this Cascade writes and reads.
  public static var formatVersion: Int { 1 }

  /// The entries, in the order recorded, up to the first bad line.
  public let entries: [Entry]
  /// The first bad line, if any: the entries stop before it.
  public let damage: RecordingDamage?

  /// Creates a recording of `entries`.
  public init(entries: [Entry], damage: RecordingDamage? = nil) {
    self.entries = entries
    self.damage = damage
  }

  /// Reads a recording from the text of a JSON Lines file.
  ///
  /// Empty lines are skipped, and so are the states a recorder with `recordingStates` wrote
  /// (`{"state":…}`). Reading stops at the first line that is not a record (a record's time
  /// included: 0 to 10¹² seconds, as a recorder writes it); the entries before it are kept and
  /// that line is described in ``damage``.
  public init(jsonLines text: String) {
    var entries: [Entry] = []
    var damage: RecordingDamage?
    let decoder = JSONDecoder()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var sawRecord = false
    for (index, line) in lines.enumerated() {
      let isLast = index == lines.count - 1
      if line.allSatisfy(\.isWhitespace) { continue }
      if !sawRecord, let header = try? decoder.decode(Header.self, from: Data(line.utf8)) {
        sawRecord = true
        guard header.cascadeRecording == Self.formatVersion else {
          let reason = RecordingDamage.Reason.unsupportedVersion(
            found: header.cascadeRecording,
            supported: Self.formatVersion
          )
          damage = RecordingDamage(line: index + 1, text: String(line), reason: reason)
          break
        }
        continue
      }
      sawRecord = true
      // The state after the input before it (a recorder with `recordingStates`): not an input.
      if line.hasPrefix(#"{"state":"#) { continue }
      do {
        let data = Data(line.utf8)
        let record = try decoder.decode(Line.self, from: data)
        var entry = Entry(
          sequence: record.sequence,
          time: SchedulerInstant(offset: .seconds(record.time)),
          input: record.input
        )
        if record.hasMutation { entry.mutationLine = data }
        entries.append(entry)
      } catch {
        // A last line without its newline is a write that was cut short.
        let reason: RecordingDamage.Reason =
          isLast ? .truncated : .corrupt(String(describing: error))
        damage = RecordingDamage(line: index + 1, text: String(line), reason: reason)
        break
      }
    }
    self.entries = entries
    self.damage = damage
  }

  /// Reads the recording in the JSON Lines file at `url`.
  ///
  /// - Throws: If the file cannot be read, or if it is of another format version (a
  ///   ``RecordingDamage`` naming both versions). A damaged file is read up to the damage.
  public init(contentsOf url: URL) throws {
    let data = try Data(contentsOf: url)
    self.init(jsonLines: String(decoding: data, as: UTF8.self))
    if let damage, case .unsupportedVersion = damage.reason { throw damage }
  }

  /// The recorded inputs, in order (a reactor's mutation entries left out).
  public var inputs: [Input] { entries.lazy.filter { !$0.isMutation }.map(\.input) }

  /// Whether every line was read (there is no ``damage``).
  public var isComplete: Bool { damage == nil }

  /// Sends every input, in order, to `send`: a store's, a reactor's or a feedback loop's.
  ///
  /// Replay into a fresh architecture built like the recorded one — same initial state and
  /// reducer — reaches the same state. The recording already holds the inputs that commands,
  /// feedbacks and middlewares sent, so replay into one whose middlewares or feedbacks would
  /// send them again only if that is what you want.
  public func replay(into send: (Input) -> Void) {
    for entry in entries where !entry.isMutation { send(entry.input) }
  }

  /// The entries, or an error if the recording is damaged, for callers that must have all of it.
  ///
  /// - Throws: ``RecordingDamage`` when a line could not be read.
  public func allEntries() throws(RecordingDamage) -> [Entry] {
    if let damage { throw damage }
    return entries
  }

  /// The header line of a recording file.
  private struct Header: Decodable {
    var cascadeRecording: Int
  }

  /// One line as written by ``RecordingMiddleware``.
  private struct Line: Decodable {
    var sequence: UInt64
    var time: Double
    var input: Input
    /// Whether the line holds a reactor's mutation, decoded later with its type.
    var hasMutation: Bool

    /// The latest time a record may have, in seconds after the recorder's origin: about 31,700
    /// years.
    static var latestTime: Double { 1e12 }

    private enum CodingKeys: String, CodingKey {
      case sequence, time, input, mutation
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      sequence = try container.decode(UInt64.self, forKey: .sequence)
      time = try container.decode(Double.self, forKey: .time)
      // A time no recorder writes would trap as a `Duration` (over about 1.7e20 s, or NaN).
      guard (0...Self.latestTime).contains(time) else {
        throw DecodingError.dataCorruptedError(
          forKey: .time,
          in: container,
          debugDescription: "a record's time is 0 to \(Self.latestTime) seconds, not \(time)"
        )
      }
      input = try container.decode(Input.self, forKey: .input)
      hasMutation = container.contains(.mutation)
    }
  }
}

/// The mutation of a reactor's line.
private struct MutationLine<Mutation: Decodable>: Decodable {
  var mutation: Mutation
}

extension Recording.Entry: Equatable where Input: Equatable {}

/// The first line of a recording that could not be read.
public struct RecordingDamage: Error, Equatable, CustomStringConvertible {
  /// Why the line could not be read.
  public enum Reason: Sendable, Equatable {
    /// The last line is incomplete: the recording was cut short while it was written.
    case truncated
    /// The line is not a record of the expected input type; the text says what the decoder
    /// found.
    case corrupt(String)
    /// The recording's header names a format version this Cascade does not read.
    case unsupportedVersion(found: Int, supported: Int)
  }

  /// The line's number, counting from 1.
  public var line: Int
  /// The line as it was read.
  public var text: String
  /// Why it could not be read.
  public var reason: Reason

  /// Creates the description of a bad line.
  public init(line: Int, text: String, reason: Reason) {
    self.line = line
    self.text = text
    self.reason = reason
  }

  /// `line <n>: truncated` or `line <n>: corrupt: <details>`, with the start of the line.
  public var description: String {
    let excerpt = text.count > 80 ? text.prefix(80) + "…" : Substring(text)
    switch reason {
    case .truncated: return "line \(line): truncated recording: \(excerpt)"
    case .corrupt(let details): return "line \(line): corrupt record (\(details)): \(excerpt)"
    case .unsupportedVersion(let found, let supported):
      return """
        line \(line): the recording is in format version \(found), and this version of \
        Cascade reads version \(supported)
        """
    }
  }
}
