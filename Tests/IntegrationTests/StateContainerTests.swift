import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// One surface for all three architectures: the same generic code drives a Store, a
/// FeedbackLoop, a `BaseReactor` subclass and a reactor of one's own through `StateContainer`,
/// and sees the same behaviour.
@Suite(.checksResources)
struct StateContainerTests {
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case store, feedbackLoop, baseReactor, reactor

    var testDescription: String { rawValue }
  }

  /// A count, and whether an effect is running: `-1` starts an effect that, once its gate
  /// opens, sends `+10`; any other input is added.
  struct Tally: Sendable, Equatable {
    var count = 0
    var waiting = false

    static func reduce(_ tally: inout Tally, _ input: Int) {
      switch input {
      case -1: tally.waiting = true
      case 10 where tally.waiting:
        tally.waiting = false
        tally.count += 10
      default: tally.count += input
      }
    }
  }

  /// What the architectures share in a test: the effects' gate, and the late inputs reported.
  final class Context: Sendable {
    let gate = Signal()
    let late = Counter()

    var diagnostics: @Sendable (StoreDiagnostic) -> Void {
      { [late] diagnostic in
        if case .lateInput = diagnostic { late.increment() }
      }
    }

    /// The effect: waits for the gate, then sends `+10`.
    var effect: @Sendable (@Sendable (Int) -> Void) async -> Void {
      { [gate] send in
        _ = await gate.wait()
        send(10)
      }
    }
  }

  final class SubclassReactor: BaseReactor<Int, Int, Tally>, @unchecked Sendable {
    // Safety: restated from BaseReactor; the subclass adds one immutable Sendable property.
    let context: Context

    init(_ context: Context) {
      self.context = context
      super.init(initialState: Tally())
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }
    override var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { context.diagnostics }

    override func mutate(action: Int) -> Mutations<Int> {
      guard action == -1 else { return [action] }
      let effect = context.effect
      return Mutations(sync: [-1], async: .operation { send in await effect { send($0) } })
    }

    override func reduce(into state: inout Tally, mutation: Int) {
      Tally.reduce(&state, mutation)
    }
  }

  /// A reactor of one's own joins with one line: `extension PlainReactor: StateContainer {}`.
  final class PlainReactor: Reactor {
    let initialState = Tally()
    let runtime = ReactorRuntime<Int, Int, Tally>()
    let context: Context

    init(_ context: Context) {
      self.context = context
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
    var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { context.diagnostics }

    func mutate(action: Int) -> Mutations<Int> {
      guard action == -1 else { return [action] }
      let effect = context.effect
      return Mutations(sync: [-1], async: .operation { send in await effect { send($0) } })
    }

    func reduce(into state: inout Tally, mutation: Int) {
      Tally.reduce(&state, mutation)
    }
  }

  /// The container of `kind`, and how to start its effect (a store's effect is a command its
  /// owner starts; the others start theirs from the input `-1`).
  static func make(
    _ kind: Kind,
    _ context: Context
  ) -> (any StateContainer<Tally, Int>, startEffect: @Sendable () -> Void) {
    switch kind {
    case .store:
      let store = Store<Tally, Int>(
        initialState: Tally(),
        diagnostics: context.diagnostics,
        reducer: Tally.reduce
      )
      let effect = context.effect
      return (
        store,
        {
          store.send(-1)
          store.run { _, store in await effect { store.send($0) } }
        }
      )
    case .feedbackLoop:
      let effect = context.effect
      let loop = FeedbackLoop<Tally, Int>(
        initialState: Tally(),
        reduceInPlace: Tally.reduce,
        feedbacks: [
          Feedback(skippingRepeated: { $0.waiting ? true : nil }) { _, send in
            await effect { send($0) }
          }
        ],
        scheduler: ImmediateScheduler.instance,
        diagnostics: context.diagnostics
      )
      return (loop, { loop.send(-1) })
    case .baseReactor:
      let reactor = SubclassReactor(context)
      return (reactor, { reactor.send(-1) })
    case .reactor:
      let reactor = PlainReactor(context)
      return (reactor, { reactor.send(-1) })
    }
  }

  @Test(arguments: Kind.allCases)
  func theSameGenericCodeDrivesEveryArchitecture(_ kind: Kind) async {
    let context = Context()
    let (container, startEffect) = Self.make(kind, context)
    await drive(container, startEffect: startEffect, context: context)
  }

  /// The generic part: only `StateContainer`'s names.
  func drive<Container: StateContainer<Tally, Int>>(
    _ container: Container,
    startEffect: () -> Void,
    context: Context
  ) async {
    let counts = Recorder<Int>()
    let subscription = container.states.subscribe(onNext: { counts.append($0.count) })

    container.send(1)
    container.send(2)
    await container.settle()
    #expect(container.currentState.count == 3)

    startEffect()
    #expect(container.effectsInFlight == 1)
    #expect(container.currentState.waiting)
    context.gate.fire()
    await container.finish()
    #expect(container.effectsInFlight == 0)
    #expect(container.currentState == Tally(count: 13, waiting: false))
    #expect(counts.values == [0, 1, 3, 3, 13])

    await container.shutdown()
    container.send(100)
    #expect(container.currentState.count == 13)
    #expect(context.late.value == 1)
    subscription.dispose()
  }
}

extension StateContainerTests.PlainReactor: StateContainer {}
