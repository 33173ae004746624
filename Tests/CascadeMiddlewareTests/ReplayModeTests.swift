import CascadeFeedback
import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// Replay is a mode of every architecture: a recording replayed into a fresh store, reactor or
/// loop reaches the same states, and no effect runs — the inputs the effects sent are in the
/// recording and are replayed in their place.
///
/// Before replay mode, a recording could only be replayed by sending its inputs
/// (`recording.replay(into: fresh.send)`): the store's commands and subscribers' reactions, the
/// reactor's `mutate` and asynchronous mutations, the loop's feedbacks all ran again, and what
/// they sent came twice (the `sendingTheInputsRunsTheEffectsAgain` test shows it).
@Suite(.checksResources)
struct ReplayModeTests {
  // The replayed architecture runs none of the effects the live one ran, sees the same states in
  // the same order, and ends in the same state.
  @Test(arguments: Arch.allCases)
  func replayRunsNoEffectAndReachesTheSameStates(_ arch: Arch) async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: buffer))
    for job in Board.session { await live.send(job) }
    let liveStates = live.states.values
    #expect(live.effects.value == 2, "the live session runs one effect per request")

    let recording = buffer.recording(of: Job.self)
    #expect(recording.isComplete)
    let fresh = Board.make(arch)
    let report = try await fresh.replay(recording)

    #expect(fresh.effects.value == 0, "no effect runs during a replay")
    #expect(fresh.mutateCalls.value == 0, "a reactor's mutate is not called during a replay")
    #expect(fresh.states.values == liveStates)
    #expect(fresh.state == live.state)
    #expect(report.replayed == recording.entries.count)
    if arch == .reactor {
      #expect(report.skippedEffects == 0, "mutate is not called, so no effect is even asked for")
    } else {
      #expect(report.skippedEffects == 2, "one per request: \(report)")
    }
  }

  // What the architecture's own reactions send during a replay (a subscriber's send, a
  // middleware's dispatch) is dropped: the recording already holds it.
  @Test(arguments: Arch.allCases)
  func reactionsDuringAReplayAreDroppedAndCounted(_ arch: Arch) async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: buffer), echoes: true)
    for job in Board.session { await live.send(job) }
    #expect(live.state.notes.contains("echo 10"), "the live subscriber echoes each result")

    let fresh = Board.make(arch, echoes: true)
    let report = try await fresh.replay(buffer.recording(of: Job.self))

    #expect(fresh.state == live.state, "each echo is replayed once, from the recording")
    if arch == .feedback {
      // A loop's reactions are feedbacks: their effects do not start.
      #expect(report.skippedEffects == 4, "two requests and two echoes: \(report)")
    } else {
      #expect(report.droppedInputs == 2, "\(report)")
    }
  }

  // A recording of one input replays that input.
  @Test(arguments: Arch.allCases)
  func aRecordingOfOneInputReplaysIt(_ arch: Arch) async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: buffer))
    await live.send(.note("only"))
    let recording = buffer.recording(of: Job.self)
    #expect(recording.inputs == [.note("only")])

    let fresh = Board.make(arch)
    let report = try await fresh.replay(recording)
    #expect(fresh.state.notes == ["only"])
    #expect(report.replayed == recording.entries.count)
  }

  // A recorder on the replayed architecture writes the recording it replays (times aside): a
  // replay of a replay is the same session.
  @Test(arguments: Arch.allCases)
  func aReplayRecordsTheRecordingItReplays(_ arch: Arch) async throws {
    let first = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: first, now: { .zero }))
    for job in Board.session { await live.send(job) }

    let second = RecordingBuffer()
    let fresh = Board.make(arch, recorder: RecordingMiddleware(buffer: second, now: { .zero }))
    try await fresh.replay(first.recording(of: Job.self))
    #expect(second.lines == first.lines)
  }

  // After a replay the architecture is live: sent inputs start their effects again.
  @Test(arguments: Arch.allCases)
  func afterAReplayTheArchitectureIsLive(_ arch: Arch) async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: buffer))
    for job in Board.session { await live.send(job) }

    let fresh = Board.make(arch)
    try await fresh.replay(buffer.recording(of: Job.self))
    await fresh.send(.request(5))
    #expect(fresh.effects.value == 1)
    #expect(fresh.state.results == live.state.results + [50])
  }

  // The failure replay mode fixes: sending a recording's inputs runs the effects again, and
  // what they send is reduced twice.
  @Test(arguments: Arch.allCases)
  func sendingTheInputsRunsTheEffectsAgain(_ arch: Arch) async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(arch, recorder: RecordingMiddleware(buffer: buffer))
    for job in Board.session { await live.send(job) }

    let fresh = Board.make(arch)
    for input in buffer.recording(of: Job.self).inputs { await fresh.send(input) }
    #expect(fresh.effects.value == 2)
    if arch != .reactor {
      // A reactor's results are mutations, not inputs: only its effects run twice.
      #expect(fresh.state.results.count == 2 * live.state.results.count)
    }
  }

  // A reactor recording's mutation lines hold the mutations, decoded with the reactor's type.
  @Test func aReactorRecordingHoldsEachMutationWithItsAction() async throws {
    let buffer = RecordingBuffer()
    let live = Board.make(.reactor, recorder: RecordingMiddleware(buffer: buffer))
    await live.send(.request(1))
    let recording = buffer.recording(of: Job.self)
    let decoded = try recording.entries.map { entry in
      (entry.input, try entry.mutation(as: Job.self))
    }
    #expect(decoded.map(\.0) == [.request(1), .request(1), .request(1)])
    #expect(decoded.map(\.1) == [nil, .request(1), .result(10)])
    #expect(recording.inputs == [.request(1)])
  }
}

/// What the board processes.
enum Job: Codable, Sendable, Equatable {
  /// Starts an effect that sends `.result(n * 10)`.
  case request(Int)
  case result(Int)
  case note(String)
}

/// The board's state.
struct BoardState: Sendable, Equatable {
  var requests: [Int] = []
  var results: [Int] = []
  var notes: [String] = []

  mutating func apply(_ job: Job) {
    switch job {
    case .request(let n): requests.append(n)
    case .result(let n): results.append(n)
    case .note(let text): notes.append(text)
    }
  }
}

/// A board reactor: a request is reduced at once and starts an asynchronous mutation.
final class BoardReactor: Reactor {
  typealias Action = Job
  typealias Mutation = Job
  typealias State = BoardState

  let initialState = BoardState()
  let runtime = ReactorRuntime<Job, Job, BoardState>()
  let attached: [any Middleware<Job, BoardState>]
  let effects: Counter
  let mutateCalls: Counter

  init(middlewares: [any Middleware<Job, BoardState>], effects: Counter, mutateCalls: Counter) {
    attached = middlewares
    self.effects = effects
    self.mutateCalls = mutateCalls
  }

  var scheduler: any Scheduler { ImmediateScheduler.instance }
  var middlewares: [any Middleware<Job, BoardState>] { attached }

  func mutate(action: Job) -> Mutations<Job> {
    mutateCalls.increment()
    guard case .request(let n) = action else { return [action] }
    let effects = effects
    var mutations = Mutations<Job>.run { send in
      effects.increment()
      send(.result(n * 10))
    }
    mutations.sync = [action]
    return mutations
  }

  func reduce(into state: inout BoardState, mutation: Job) { state.apply(mutation) }
}

/// One board on one architecture: each request starts an effect that sends its result; with
/// `echoes`, a subscriber (a feedback, for the loop) sends a note for each new result.
struct Board: Sendable {
  let sendAndFinish: @Sendable (Job) async -> Void
  let replayRecording: @Sendable (Recording<Job>) async throws -> ReplayReport
  let readState: @Sendable () -> BoardState
  /// The effects that ran, and the reactor's `mutate` calls.
  let effects: Counter
  let mutateCalls: Counter
  /// Every state delivered, in order.
  let states: Recorder<BoardState>
  /// Keeps the architecture and its subscription alive as long as this value.
  let owner: LockedValue<[any Sendable]>

  /// The session the tests record: two requests and a note.
  static let session: [Job] = [.request(1), .note("a"), .request(2)]

  var state: BoardState { readState() }

  /// Sends `job`, then waits until its effects have ended and what they sent is reduced.
  func send(_ job: Job) async { await sendAndFinish(job) }

  @discardableResult
  func replay(_ recording: Recording<Job>) async throws -> ReplayReport {
    try await replayRecording(recording)
  }

  static func make(
    _ arch: Arch,
    recorder: RecordingMiddleware<Job, BoardState>? = nil,
    echoes: Bool = false
  ) -> Board {
    let middlewares: [any Middleware<Job, BoardState>] = recorder.map { [$0] } ?? []
    let effects = Counter()
    let mutateCalls = Counter()
    let states = Recorder<BoardState>()
    let owner = LockedValue<[any Sendable]>([])
    let board: Board
    switch arch {
    case .store:
      let store = Store(initialState: BoardState(), middlewares: middlewares) { state, job in
        state.apply(job)
      }
      let seen = LockedValue((requests: 0, results: 0))
      let subscription = store.subscribe(on: .synchronous) { [weak store] state in
        guard let store else { return }
        states.append(state)
        let (newRequests, newResults) = seen.withLock { seen in
          defer { seen = (state.requests.count, state.results.count) }
          return (state.requests.dropFirst(seen.requests), state.results.dropFirst(seen.results))
        }
        for n in newRequests {
          store.run("request \(n)") { _, store in
            effects.increment()
            store.send(.result(n * 10))
          }
        }
        if echoes { for n in newResults { store.send(.note("echo \(n)")) } }
      }
      owner.withLock { $0 = [store, subscription] }
      board = Board(
        sendAndFinish: { job in
          store.send(job)
          await store.finish()
        },
        replayRecording: { await $0.replay(into: store) },
        readState: { store.state },
        effects: effects,
        mutateCalls: mutateCalls,
        states: states,
        owner: owner
      )
    case .reactor:
      let reactor = BoardReactor(
        middlewares: middlewares,
        effects: effects,
        mutateCalls: mutateCalls
      )
      let seen = LockedValue(0)
      let subscription = reactor.states.subscribe(onNext: { [weak reactor] state in
        guard let reactor else { return }
        states.append(state)
        let newResults = seen.withLock { seen in
          defer { seen = state.results.count }
          return state.results.dropFirst(seen)
        }
        if echoes { for n in newResults { reactor.send(.note("echo \(n)")) } }
      })
      owner.withLock { $0 = [reactor, subscription] }
      board = Board(
        sendAndFinish: { job in
          reactor.send(job)
          await reactor.finish()
        },
        replayRecording: { try await $0.replay(into: reactor) },
        readState: { reactor.currentState },
        effects: effects,
        mutateCalls: mutateCalls,
        states: states,
        owner: owner
      )
    case .feedback:
      var feedbacks: [Feedback<BoardState, Job>] = [
        // Each new request (the query is the list of requests) starts one effect.
        Feedback(skippingRepeated: { $0.requests.isEmpty ? nil : $0.requests }) { requests in
          Observable<Job, Never>.deferred {
            effects.increment()
            return Observable.just(.result((requests.last ?? 0) * 10))
          }
        }
      ]
      if echoes {
        feedbacks.append(
          Feedback(skippingRepeated: { $0.results.last }) { n in
            Observable<Job, Never>.just(.note("echo \(n)"))
          }
        )
      }
      let loop = FeedbackLoop<BoardState, Job>(
        initialState: BoardState(),
        reduceInPlace: { state, job in state.apply(job) },
        feedbacks: feedbacks,
        scheduler: ImmediateScheduler.instance,
        middlewares: middlewares
      )
      let subscription = loop.states.subscribe(onNext: { states.append($0) })
      owner.withLock { $0 = [loop, subscription] }
      board = Board(
        sendAndFinish: { job in
          loop.send(job)
          await loop.finish()
        },
        replayRecording: { await $0.replay(into: loop) },
        readState: { loop.currentState },
        effects: effects,
        mutateCalls: mutateCalls,
        states: states,
        owner: owner
      )
    }
    return board
  }

  init(
    sendAndFinish: @escaping @Sendable (Job) async -> Void,
    replayRecording: @escaping @Sendable (Recording<Job>) async throws -> ReplayReport,
    readState: @escaping @Sendable () -> BoardState,
    effects: Counter,
    mutateCalls: Counter,
    states: Recorder<BoardState>,
    owner: LockedValue<[any Sendable]>
  ) {
    self.sendAndFinish = sendAndFinish
    self.replayRecording = replayRecording
    self.readState = readState
    self.effects = effects
    self.mutateCalls = mutateCalls
    self.states = states
    self.owner = owner
  }
}
