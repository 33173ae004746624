import CascadeMiddleware
import CascadeStore
import CascadeStreams
public import Foundation

/// Why a recording cannot be made into a test.
///
/// Its ``description`` is one line.
public struct RecordingTestError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The recording's path.
  public var path: String
  /// Why.
  public var reason: String

  /// `cannot make a test of <path>: <why>`.
  public var description: String { "cannot make a test of \(path): \(reason)" }
}

extension RecordingTestBlueprint {
  /// A Swift Testing source file that replays the recording at `url` through the exhaustive
  /// `TestStore` of the architecture that made it.
  ///
  /// The recording is replayed first, with its state checks: a test is made only of states the
  /// recording proves. Then each record becomes one line, ending with its number (`// #12`):
  /// an intent is sent through the app's service, as the front sent it; each input the
  /// architecture processed (a reactor's mutation) is received, with the change of state it
  /// made as a merge patch (``StatePatch``); before an effect's outcome, the test releases it
  /// from ``RecordedEffects``, so the app's stubs answer as recorded. A reducer that no longer
  /// computes what the recording did fails the test on that record's line, with the difference.
  ///
  /// ```swift
  /// let source = try await GameApp.recordingTest(
  ///   contentsOf: url, suite: "RPGPlayStoreRecordingTests", generator: "cascade-inspect play.jsonl --export-test T.swift"
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - url: The recording.
  ///   - suite: The name of the test suite (a Swift type name).
  ///   - generator: The command that makes the file, named in its header.
  /// - Returns: The source file.
  /// - Throws: ``RecordingTestError`` when the recording cannot be read or replayed (another
  ///   app's, damaged, or not what this version of the app computes).
  public static func recordingTest(
    contentsOf url: URL,
    suite: String,
    generator: String
  ) async throws(RecordingTestError) -> String {
    let raw = try RawRecording(contentsOf: url)
    let builder = TestSourceBuilder(
      app: Self.self,
      architecture: raw.architecture,
      command: raw.command,
      path: url.lastPathComponent,
      suite: suite,
      generator: generator
    )
    switch raw.architecture {
    case .store:
      return try await store.recordingTest(
        of: Self.self,
        url: url,
        raw: raw,
        builder: builder,
        container: "service.container",
        receivedForm: .recorded("\(String(reflecting: Self.self)).store.recorded")
      )
    case .reactor:
      return try await reactor.recordingTest(
        of: Self.self,
        url: url,
        raw: raw,
        builder: builder,
        container: "reactor: service.container",
        receivedForm: .mutation
      )
    case .feedback:
      return try await feedback.recordingTest(
        of: Self.self,
        url: url,
        raw: raw,
        builder: builder,
        container: "loop: service.container",
        receivedForm: .input
      )
    }
  }
}

/// How a test store's received inputs are spelled in the test.
enum ReceivedForm: Equatable {
  /// The recorded input, through a form of the container's input (a `Core`'s events).
  case recorded(String)
  /// The recorded input itself (a loop's events).
  case input
  /// The reactor's mutation.
  case mutation
}

/// What a replay saw processed: the input, a reactor's mutation, the state after.
private struct Processed<Input: Sendable, State: Sendable>: Sendable {
  var input: Input
  var mutation: (any Sendable)?
  var state: State
}

/// Keeps what the replayed container processes, in order.
private final class Capture<Input: Sendable, State: Sendable>: Middleware, Sendable {
  let processed = LockedValue<[Processed<Input, State>]>([])

  func process(_ record: MiddlewareRecord<Input, State>) {
    processed.withLock {
      $0.append(Processed(input: record.input, mutation: record.mutation, state: record.state))
    }
  }
}

extension ArchitectureBuild
where Service.Container.State: Codable, Schema.Intent == Service.Intent {
  /// The test of the recording at `url`, made on this architecture.
  fileprivate func recordingTest<App: RecordingTestBlueprint>(
    of app: App.Type,
    url: URL,
    raw: RawRecording,
    builder: TestSourceBuilder,
    container: String,
    receivedForm: ReceivedForm
  ) async throws(RecordingTestError) -> String
  where App.Environment == Environment, App.Start == Schema.Start {
    typealias State = Service.Container.State
    let path = url.path
    func failure(_ reason: String) -> RecordingTestError {
      RecordingTestError(path: path, reason: reason)
    }
    let recording: SessionRecording<Schema>
    do {
      recording = try SessionRecording<Schema>(contentsOf: url, command: raw.command)
    } catch {
      throw failure(String(error.description.trimmingPrefix("cannot replay \(path): ")))
    }
    let capture = Capture<Input, State>()
    let service = make(
      App.testEnvironment(start: recording.header.start, effects: .none),
      [recording.verifier.middleware(of: State.self), capture]
    )
    let initial = service.container.currentState
    do {
      let session = try AppSession<Schema.Intent, Service.State>.replaying(
        service,
        recording: recording,
        replayer: service.container.replayer(decoding: decode)
      )
      _ = try await session.replayRecording()
    } catch {
      throw failure(String(error.description.trimmingPrefix("cannot replay \(path): ")))
    }
    let processed = capture.processed.withLock { $0 }

    var source = builder
    source.declare(
      start: try encoded(recording.header.start, path),
      state: String(reflecting: State.self),
      container: container
    )
    var previous = initial
    var next = 0
    let entries = recording.entries
    for (index, entry) in entries.enumerated() {
      let sequence = Int(entry.sequence)
      switch entry.input {
      case .intent(let intent):
        source.send(try encoded(intent, path), record: sequence)
      case .input(let input):
        let isChecked: Bool
        if index + 1 < entries.count, case .check = entries[index + 1].input {
          isChecked = true
        } else {
          isChecked = false
        }
        guard isChecked else {
          source.note(try encoded(input, path), record: sequence)
          continue
        }
        guard next < processed.count else {
          throw failure("the replay processed fewer inputs than the recording holds")
        }
        let step = processed[next]
        next += 1
        let patch: String?
        do {
          patch = try StatePatch<State>.make(from: previous, to: step.state)
          if let patch {
            var patched = previous
            try StatePatch<State>.apply(patch)(&patched)
            guard try JSONValue(of: patched) == JSONValue(of: step.state) else {
              throw failure(
                "the state after record #\(sequence) does not come back from its JSON the same"
              )
            }
          }
        } catch let error as RecordingTestError {
          throw error
        } catch {
          throw failure("the state after record #\(sequence) cannot be written as JSON: \(error)")
        }
        previous = step.state
        if isEffectOutcome(step.input, step.mutation) {
          guard let outcome = App.effectOutcome(of: step.input, mutation: step.mutation) else {
            throw failure("record #\(sequence) is an effect's outcome the app cannot stub")
          }
          source.release(
            record: sequence,
            key: outcome.key,
            outcome: try encoded(outcome.outcome, path)
          )
        }
        let received: String
        let receivedType: String
        switch receivedForm {
        case .recorded, .input:
          received = try encoded(input, path)
          receivedType = String(reflecting: Schema.Input.self)
        case .mutation:
          guard let mutation = step.mutation as? any Encodable else {
            throw failure("record #\(sequence) holds no mutation that can be written as JSON")
          }
          received = try encoded(mutation, path)
          receivedType = String(reflecting: type(of: mutation))
        }
        source.receive(
          received,
          type: receivedType,
          form: receivedForm,
          patch: patch,
          record: sequence
        )
      case .fact, .check, .start:
        continue
      }
    }
    return source.text(effectType: String(reflecting: App.EffectOutcome.self))
  }
}

/// `value`'s JSON, keys sorted.
private func encoded(_ value: some Encodable, _ path: String) throws(RecordingTestError) -> String {
  do {
    return try JSONValue(of: value).text
  } catch {
    throw RecordingTestError(path: path, reason: "a record cannot be written as JSON: \(error)")
  }
}

/// A recording's header, read before its records are decoded with the app's types.
struct RawRecording {
  var architecture: Architecture
  var command: String

  init(contentsOf url: URL) throws(RecordingTestError) {
    let path = url.path
    let data: Data
    do {
      data = try SafeFile.read(path)
    } catch {
      throw RecordingTestError(path: path, reason: FileProblem(error, path: path).reason)
    }
    // The header is among the first lines; the records are read with the app's types later.
    let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 3)
    for line in lines.prefix(3) {
      guard
        case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: line),
        case .object(let input)? = members["input"],
        case .object(let session)? = input["session"]
      else { continue }
      guard
        case .string(let architecture)? = session["architecture"],
        let known = Architecture(rawValue: architecture),
        case .string(let command)? = session["command"]
      else { break }
      self.architecture = known
      self.command = command
      return
    }
    throw RecordingTestError(path: path, reason: "it is not a session recording")
  }
}
