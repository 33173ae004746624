import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Errors are never swallowed, and never end the reactor: a failing stream or operation is
/// reported (through IssueReporting by default: a test failure under Swift Testing, hence
/// `withKnownIssue`), and the reactor goes on.
@Suite(.checksResources)
struct ReactorErrorTests {
  final class FailingReactor: Reactor {
    enum Action: Sendable {
      case add(Int)
      case failingStream
      case failingOperation
    }

    let initialState = 0
    let runtime = ReactorRuntime<Action, Int, Int>()
    /// The source of the failing stream's later events.
    let source = PublishSubject<Int, any Error>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Int> {
      switch action {
      case .add(let amount):
        return [amount]
      case .failingStream:
        return .stream(
          Observable<Int, any Error>.concat(.just(1), source.asObservable())
        )
      case .failingOperation:
        return .run { send in
          send(1)
          throw TestError("operation boom")
        }
      }
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  // A mutation stream that emits and then fails: its mutation is applied, the failure is
  // reported naming the action, and the state stream keeps running.
  @Test func failingStreamIsReportedAndTheStateStreamGoesOn() {
    let reactor = FailingReactor()
    let states = Recorder<Int>()
    let ended = Counter()
    let subscription = reactor.state.subscribe(
      onNext: { states.append($0) },
      onCompleted: { ended.increment() }
    )
    reactor.send(.failingStream)
    withKnownIssue {
      reactor.source.onError(TestError("stream boom"))
    } matching: { issue in
      issue.description.contains("mutate(failingStream)")
        && issue.description.contains("stream boom")
    }
    reactor.send(.add(10))
    #expect(states.values == [0, 1, 11])
    #expect(ended.value == 0)
    subscription.dispose()
  }

  // AT-34: an operation that sends one mutation, then throws: the mutation is applied, later
  // actions are processed, and the error is reported.
  @Test func failingOperationDoesNotKillTheReactor() async {
    let reactor = FailingReactor()
    await withKnownIssue {
      reactor.send(.failingOperation)
      // The operation has ended: its mutation is applied and its failure reported.
      await reactor.finish()
      #expect(reactor.effectsInFlight == 0)
    } matching: { issue in
      issue.description.contains("mutate(failingOperation)")
        && issue.description.contains("operation boom")
    }
    reactor.send(.add(10))
    #expect(reactor.currentState == 11)
  }

  final class CounterReactor: Reactor {
    typealias Action = Int

    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  // AT-36: the action input ignores `completed`: a bound stream that completes does not end the
  // reactor, and later actions are still processed and delivered.
  @Test func completedActionSourceDoesNotEndTheReactor() {
    let reactor = CounterReactor()
    let states = Recorder<Int>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    let binding = Observable.of(1, 2).bind(to: reactor.action)
    reactor.action.on(.completed)
    reactor.action.onNext(10)
    #expect(reactor.currentState == 13)
    #expect(states.values == [0, 1, 3, 13])
    binding.dispose()
    subscription.dispose()
  }

  // AT-36: and it cannot receive an error at all (its failure type is `Never`): a source that
  // fails is bound after handling its failure, and its failure ends only that binding.
  @Test func failedActionSourceDoesNotEndTheReactor() {
    let reactor = CounterReactor()
    let states = Recorder<Int>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    let failing = Observable<Int, TestError>.concat(.just(1), .error(TestError("input boom")))
    let binding = failing.catch { _ in Observable<Int, Never>.empty() }.bind(to: reactor.action)
    reactor.action.onNext(10)
    #expect(reactor.currentState == 11)
    #expect(states.values == [0, 1, 11])
    binding.dispose()
    subscription.dispose()
  }

  /// A reactor whose failures go to its own `diagnostics` hook instead of being reported.
  final class DiagnosedReactor: Reactor {
    let initialState = 0
    let runtime = ReactorRuntime<Bool, Int, Int>()
    let received = Recorder<String>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? {
      { [received] diagnostic in received.append(diagnostic.description) }
    }

    func mutate(action: Bool) -> Mutations<Int> {
      .run { send in
        send(1)
        if action { throw TestError("hook boom") }
      }
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  // The `diagnostics` hook receives a failed operation (no test issue is recorded), so an app
  // can route it to its error reporting.
  @Test func diagnosticsHookReceivesFailures() async {
    let reactor = DiagnosedReactor()
    reactor.send(true)
    #expect(await reactor.received.wait(forCount: 1))
    // The operation has ended: nothing more is reported, and its mutation is applied.
    await reactor.finish()
    #expect(reactor.received.values.count == 1)
    #expect(reactor.received.values.first?.contains("hook boom") == true)
    #expect(reactor.currentState == 1)
  }
}
