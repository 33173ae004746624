import CascadeReactor
import CascadeStreams
import CascadeTesting
import Testing

/// The reactor assertions: a reactor's states for actions sent on virtual time, and the actions
/// a stubbed reactor recorded; each failure is reported with a diff.
@Suite(.checksResources)
struct ReactorAssertionsTests {
  /// ReactorKit's list example: `.refresh` sets `isLoading`, and the response, a second later on
  /// the clock, sets the items and clears `isLoading`.
  final class ListReactor: Reactor {
    enum Action: Equatable, Sendable {
      case refresh
      case select(Int)
    }

    enum Mutation: Sendable {
      case setLoading(Bool)
      case setItems([String])
    }

    struct State: Equatable, Sendable {
      var isLoading = false
      var items: [String] = []
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let clock: TestScheduler
    let delivery: any Scheduler

    /// A reactor whose responses take a second on `clock`, delivering its state on `delivery`
    /// (`clock` unless given).
    init(clock: TestScheduler, delivery: (any Scheduler)? = nil) {
      self.clock = clock
      self.delivery = delivery ?? clock
    }

    var scheduler: any Scheduler { delivery }

    /// The assertions follow every state, not the latest: states produced at the same virtual
    /// time would otherwise reach the subscriber as one.
    var deliversEveryState: Bool { true }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .refresh:
        Mutations(
          sync: .setLoading(true),
          async: Observable.from([Mutation.setItems(["a", "b"]), .setLoading(false)])
            .delay(.seconds(1), scheduler: clock)
        )
      case .select: .none
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setLoading(let isLoading): state.isLoading = isLoading
      case .setItems(let items): state.items = items
      }
    }
  }

  @Test func followsASelectionOfTheStateOnVirtualTime() {
    let scheduler = TestScheduler()
    let reactor = ListReactor(clock: scheduler)
    reactor.assertStates(
      \.isLoading,
      on: scheduler,
      actions: [.next(.seconds(100), .refresh)],
      equal: [.next(.zero, false), .next(.seconds(100), true), .next(.seconds(101), false)]
    )
    #expect(scheduler.now.offset == .seconds(101))
    #expect(reactor.currentState.items == ["a", "b"])
  }

  @Test func followsTheWholeState() {
    let scheduler = TestScheduler()
    let reactor = ListReactor(clock: scheduler)
    typealias State = ListReactor.State
    reactor.assertStates(
      on: scheduler,
      actions: [.next(.seconds(5), .refresh)],
      equal: [
        .next(.zero, State()),
        .next(.seconds(5), State(isLoading: true)),
        .next(.seconds(6), State(isLoading: true, items: ["a", "b"])),
        .next(.seconds(6), State(isLoading: false, items: ["a", "b"])),
      ]
    )
  }

  @Test func worksWithAnImmediateSchedulerToo() {
    let scheduler = TestScheduler()
    let reactor = ListReactor(clock: scheduler, delivery: ImmediateScheduler.instance)
    reactor.assertStates(
      \.items,
      on: scheduler,
      actions: [.next(.seconds(1), .refresh), .next(.seconds(3), .refresh)],
      equal: [.next(.zero, []), .next(.seconds(2), ["a", "b"])]
    )
  }

  @Test func startsAtTheCurrentTimeAndStopsAtTheEndGiven() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .seconds(10))
    let reactor = ListReactor(clock: scheduler)
    reactor.assertStates(
      \.isLoading,
      on: scheduler,
      actions: [.next(.seconds(5), .refresh), .next(.seconds(20), .refresh)],
      until: .seconds(15),
      equal: [
        .next(.seconds(10), false),
        .next(.seconds(10), true),  // the action due at 5 s, played at once
        .next(.seconds(11), false),
      ]
    )
    #expect(scheduler.now.offset == .seconds(15))
    // The action due at 20 s is never sent.
    scheduler.advance(by: .seconds(10))
    #expect(reactor.currentState.isLoading == false)
  }

  // A mismatch is a test failure whose message is a diff of the expected and recorded values.
  @Test func aWrongExpectationIsReportedWithADiff() {
    let scheduler = TestScheduler()
    let reactor = ListReactor(clock: scheduler)
    withKnownIssue {
      reactor.assertStates(
        \.isLoading,
        on: scheduler,
        actions: [.next(.seconds(100), .refresh)],
        equal: [.next(.zero, false), .next(.seconds(100), true), .next(.seconds(102), false)],
        "after a refresh"
      )
    } matching: { issue in
      let text = issue.description
      return text.contains("The reactor's states differ from the expected ones: after a refresh")
        && text.contains("-     102.0 seconds,") && text.contains("+     101.0 seconds,")
        && text.contains("(Expected: -, Actual: +)")
    }
  }

  @Test func aReactorDeliveringElsewhereIsPointedOut() {
    let scheduler = TestScheduler()
    let elsewhere = TestScheduler()
    let reactor = ListReactor(clock: scheduler, delivery: elsewhere)
    withKnownIssue {
      reactor.assertStates(
        \.isLoading,
        on: scheduler,
        actions: [.next(.seconds(1), .refresh)],
        equal: [.next(.zero, false), .next(.seconds(1), true), .next(.seconds(2), false)]
      )
    } matching: { issue in
      issue.description.contains("the reactor did not deliver its state when subscribed")
    }
    elsewhere.run()
  }

  @Test func assertsTheActionsAStubbedReactorRecorded() {
    let reactor = ListReactor(clock: TestScheduler())
    reactor.isStubEnabled = true
    reactor.action.onNext(.refresh)
    reactor.send(.select(2))
    reactor.assertStubActions([.refresh, .select(2)])
    #expect(reactor.currentState == ListReactor.State())
    withKnownIssue {
      reactor.assertStubActions([.refresh, .select(3)])
    } matching: { issue in
      issue.description.contains("The stubbed reactor's actions differ from the expected ones")
        && issue.description.contains("-   [1]: .select(3)")
        && issue.description.contains("+   [1]: .select(2)")
    }
  }

  @Test func assertingTheStubOfAnUnstubbedReactorFails() {
    let reactor = ListReactor(clock: TestScheduler())
    reactor.send(.select(1))
    withKnownIssue {
      reactor.assertStubActions([.select(1)])
    } matching: { issue in
      issue.description.contains("The reactor is not stubbed")
    }
  }
}
