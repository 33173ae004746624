import CascadeReactor
import CascadeStreams
import CascadeTesting
import Testing

/// The exhaustive test store on a reactor: `send` asserts an action's synchronous mutations,
/// `receive` each later mutation, on virtual time; and one test per failure of AT-33.
@Suite(.checksResources, .timeLimit(.minutes(5)))
struct ReactorTestStoreTests {
  final class ListReactor: Reactor {
    enum Action: Equatable, Sendable {
      case refresh
      case increment
      case noop
      case load
      case incrementTwiceLater
      case watch
    }

    enum Mutation: Equatable, Sendable {
      case setLoading(Bool)
      case setItems([String])
      case increment
    }

    struct State: Equatable, Sendable {
      var isLoading = false
      var items: [String] = []
      var count = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let clock: TestScheduler

    init(clock: TestScheduler) {
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .refresh:
        // Loading on at once; the items and loading off a second later, from a stream.
        Mutations(
          sync: .setLoading(true),
          async: Observable.from([Mutation.setItems(["a", "b"]), .setLoading(false)])
            .delay(.seconds(1), scheduler: clock)
        )
      case .increment:
        [.increment]
      case .noop:
        .none
      case .load:
        // Loading on at once; the items two seconds later, from an `async` operation.
        Mutations(
          sync: [.setLoading(true)],
          async: .operation { [clock] send in
            try await clock.sleep(for: .seconds(2))
            send(.setItems(["x"]))
            send(.setLoading(false))
          }
        )
        .cancellable(id: "load")
      case .incrementTwiceLater:
        // The reactor sends itself actions: their mutations are received.
        .run { [weak self] _ in
          self?.send(.increment)
          self?.send(.increment)
        }
      case .watch:
        // A stream that never ends on its own.
        .stream(Observable<Mutation, Never>.never()).cancellable(id: "watch")
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setLoading(let isLoading): state.isLoading = isLoading
      case .setItems(let items): state.items = items
      case .increment: state.count += 1
      }
    }
  }

  // MARK: - Happy paths

  @Test func sendAssertsTheSynchronousMutations() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.noop)
    #expect(store.state.count == 2)
    await store.finish()
  }

  // AT-33: the mutations of a stream are received, in order, on virtual time the test store
  // advances within its budget.
  @Test func receivesTheMutationsOfAStream() async {
    let clock = TestScheduler()
    let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)

    await store.send(.refresh) { $0.isLoading = true }
    await store.receive(.setItems(["a", "b"]), within: .seconds(5)) { $0.items = ["a", "b"] }
    await store.receive(.setLoading(false)) { $0.isLoading = false }
    #expect(clock.now == SchedulerInstant(offset: .seconds(1)))
    await store.finish()
  }

  // AT-33: the mutations of an `async` operation sleeping on the clock are received.
  @Test func receivesTheMutationsOfAnAsyncOperation() async throws {
    let clock = TestScheduler()
    let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)

    await store.send(.load) { $0.isLoading = true }
    try await clock.waitForPendingItems(1)
    await clock.advance(by: .seconds(2))
    await store.receive(.setItems(["x"])) { $0.items = ["x"] }
    await store.receive(.setLoading(false)) { $0.isLoading = false }
    await store.finish()
  }

  // AT-33: the mutations of actions the reactor sends itself are received.
  @Test func receivesTheMutationsOfActionsTheReactorSendsItself() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await store.send(.incrementTwiceLater)
    await store.receive(.increment) { $0.count = 1 }
    await store.receive(.increment) { $0.count = 2 }
    await store.finish()
  }

  @Test func actionsSentStraightToTheReactorAreReceived() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    store.reactor.send(.increment)
    await store.receive(.increment) { $0.count = 1 }
    await store.finish()
  }

  // MARK: - AT-33 failures

  // AT-33 (1): a state after the synchronous mutations that differs from the expectation.
  @Test func failsWhenTheStateDiffersFromTheExpectation() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.description
      return text.contains("The state after send(.increment) does not match the expectation")
        && text.contains("-   count: 2") && text.contains("+   count: 1")
    }
    await store.finish()
  }

  // AT-33 (2): a change not asserted.
  @Test func failsWhenAChangeWasNotAsserted() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      issue.description.contains(
        "State changed after send(.increment), but no change was asserted"
      )
    }
    await store.finish()
  }

  // AT-33 (3): a change asserted for an action with no mutation.
  @Test func failsWhenAnAssertedChangeDidNotHappen() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await withKnownIssue {
      await store.send(.noop) { $0.count = 1 }
    } matching: { issue in
      issue.description.contains(
        "A state change was asserted after send(.noop), but the state did not change"
      )
    }
    await store.finish()
  }

  // AT-33 (4): a received mutation not asserted, before the next send and at the end.
  @Test func failsForReceivedMutationsNotAsserted() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    store.reactor.send(.increment)
    store.reactor.send(.increment)
    await withKnownIssue {
      await store.send(.noop)
    } matching: { issue in
      message(of: issue)
        == "2 received mutations must be asserted before send(.noop):\n\n  .increment\n  .increment"
    }
    await store.send(.incrementTwiceLater)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let text = issue.description
      return text.contains("2 received mutations were not asserted at the end of the test:")
        && text.contains("\n  .increment\n  .increment\n")
    }
  }

  // AT-33 (5): a mutation that never comes, and a different one than expected.
  @Test func failsWhenAMutationNeverCameOrADifferentOneCame() async {
    let clock = TestScheduler()
    let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)
    await withKnownIssue {
      await store.receive(.setLoading(false))
    } matching: { issue in
      issue.description.contains(
        "Expected to receive .setLoading(false), but it never arrived: no asynchronous "
          + "mutation or mutation stream is in flight to send it"
      )
    }
    await store.send(.refresh) { $0.isLoading = true }
    await withKnownIssue {
      await store.receive(.setLoading(false), within: .seconds(1)) { $0.isLoading = false }
    } matching: { issue in
      let text = issue.description
      return text.contains("Received .setItems(") && text.contains("where .setLoading(false) was")
    }
    await store.receive(.setLoading(false)) { $0.isLoading = false }
    await store.finish()
  }

  // AT-33 (6): an `async` operation still running at the end, named after its action.
  @Test func failsForAnOperationStillRunningAtTheEnd() async throws {
    let clock = TestScheduler()
    let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)
    await store.send(.load) { $0.isLoading = true }
    try await clock.waitForPendingItems(1)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      let text = issue.description
      return text.contains("1 effect is still running at the end of the test:")
        && text.contains("\"mutate(load)\", started after send(.load)")
    }
    store.reactor.cancel(id: "load")
    await store.reactor.finish()
  }

  // AT-33 (6): a mutation stream still running at the end.
  @Test func failsForAMutationStreamStillRunningAtTheEnd() async {
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await store.send(.watch)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      issue.description.contains("1 effect is still running at the end of the test:")
        && issue.description.contains("\"mutate(watch)\", started after send(.watch)")
    }
    store.reactor.cancel(id: "watch")
    await store.finish()
  }

  // AT-33 (6): an effect the reactor began before the test store was attached (the log never
  // saw it start) is still reported at the end, by count.
  @Test func failsForAnEffectBegunBeforeTheTestStore() async {
    let reactor = ListReactor(clock: TestScheduler())
    reactor.send(.watch)
    await reactor.settle()
    let store = TestStore(reactor: reactor)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(100))
    } matching: { issue in
      issue.description.contains(
        "1 effect started before the test store is still running at the end of the test"
      )
    }
    reactor.cancel(id: "watch")
    await store.finish()
  }

  // AT-33 (7): an assertion closure that throws.
  @Test func failsWhenAnAssertionClosureThrows() async {
    struct Boom: Error {}
    let store = TestStore(reactor: ListReactor(clock: TestScheduler()))
    await withKnownIssue {
      await store.send(.increment) { _ in throw Boom() }
    } matching: { issue in
      issue.description.contains("The assertion closure of send(.increment) threw an error")
    }
    await store.finish()
  }

  // AT-33: non-exhaustive mode skips unasserted mutations and work still running.
  @Test func nonExhaustiveModeSkipsWhatTheTestDoesNotAssert() async {
    let clock = TestScheduler()
    let store = TestStore(reactor: ListReactor(clock: clock), clock: clock)
    store.exhaustivity = .off
    await store.send(.refresh)
    await store.receive(.setLoading(false), within: .seconds(1))
    await store.send(.watch)
    await store.finish(timeout: .milliseconds(50))
    #expect(store.skippedAssertions.count == 4)
    store.reactor.cancel(id: "watch")
    await store.finish()
  }
}

/// The message a failure was reported with, exactly.
private func message(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}
