import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Sends from inside an architecture are queued, in order, never recursive.
///
/// Every place that can send — its reducer, a state subscriber, a middleware, an effect started
/// synchronously — has its sends queued behind the input being processed and handled in the
/// order they were sent: never recursively, never dropped, never deadlocking. The same policy on
/// the store, the reactor and the loop.
@Suite(.checksResources)
struct ReentrancyTests {
  /// Where the sends come from.
  enum Source: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The reducer (the Store's reducer closure, the reactor's `reduce`, the loop's reducer).
    case reducer
    /// A state subscriber called synchronously.
    case subscriber
    /// A middleware, through its dispatcher.
    case middleware
    /// An effect started synchronously while an input is processed: a store's command, a
    /// reactor's mutation stream, a loop's effect.
    case effect

    var description: String { rawValue }
  }

  /// A middleware that continues the chain through its dispatcher.
  struct ChainMiddleware: Middleware {
    let limit: Int
    let gauge: DepthGauge

    func process(_ record: MiddlewareRecord<LedgerInput, Ledger>) {
      gauge.measure {
        for next in Chain.follow(record.input, limit: limit) { record.dispatcher.dispatch(next) }
      }
    }
  }

  static let limit = 200

  // AT-16 (reducer), AT-17 (subscriber), AT-19 (middleware), AT-20 and AT-23 (effects), on
  // every architecture: each place that can send, on seeing chain step v, sends v + 1 and then
  // -(v + 1), 200 steps deep. The log is exactly 0, 1, -1, 2, -2, …, 200, -200 (first in, first
  // out, each after the current input: a recursive send would nest the steps, a lost one would
  // shorten the log); the sender and the reducer are never re-entered (depth 1, measured with a
  // counter); a second subscriber sees every state in reduce order, each one step longer than
  // the last (it never sees state(A + B) before state(A)); and the chain finishes on one thread
  // within the timeout (no deadlock).
  @Test(arguments: Architecture.allCases, Source.allCases)
  func sendsFromInsideAreQueuedInOrder(_ architecture: Architecture, _ source: Source) async {
    let limit = Self.limit
    let reducerGauge = DepthGauge()
    let sourceGauge = DepthGauge()
    var options = LedgerOptions(reducerGauge: reducerGauge)
    switch source {
    case .reducer:
      options.reduceHook = { input, inbox in
        sourceGauge.measure {
          for next in Chain.follow(input, limit: limit) { inbox.send(next) }
        }
      }
    case .middleware:
      options.middlewares = [ChainMiddleware(limit: limit, gauge: sourceGauge)]
    case .effect:
      options.chainEffect = (limit, sourceGauge)
    case .subscriber:
      break
    }
    let app = LedgerApp(architecture, options: options)
    var subscriptions: [any Disposable] = []
    if source == .subscriber {
      subscriptions.append(
        app.subscribe { [weak app] ledger in
          sourceGauge.measure {
            guard let step = ledger.log.last else { return }
            for next in Chain.follow(.chain(step), limit: limit) { app?.send(next) }
          }
        }
      )
    }
    let seen = Recorder<[Int]>()
    subscriptions.append(app.subscribe { seen.append($0.log) })

    let finished = await runOnThreads(1) { _ in app.startChain() }

    #expect(finished, "the chain did not finish: a deadlock")
    #expect(app.state.log == Chain.expectedLog(limit: limit))
    #expect(sourceGauge.calls > 0)
    #expect(sourceGauge.maximum == 1)
    #expect(reducerGauge.maximum == 1)
    let logs = seen.values
    #expect(logs.first == [])
    #expect(logs.last == Chain.expectedLog(limit: limit))
    #expect(zip(logs, logs.dropFirst()).allSatisfy { $1.dropLast().elementsEqual($0) })
    for subscription in subscriptions { subscription.dispose() }
  }
}
