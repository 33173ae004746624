import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ErrorReportingMiddlewareTests {
  struct HTTPError: Error, Equatable {
    var status: Int
  }

  enum Action: Sendable, Equatable {
    case request(String)
    case response(status: Int, path: String)
    case showLogin
  }

  struct AppState: Sendable, Equatable {
    var lastPath = ""
    var loginShown = false
    var log: [String] = []
  }

  static func reduce(_ state: inout AppState, _ action: Action) {
    switch action {
    case .request(let path): state.lastPath = path
    case .response(let status, let path): state.log.append("\(status) \(path)")
    case .showLogin: state.loginShown = true
    }
  }

  // The seed's example: spot an HTTP 401 and fire a login event.
  @Test func a401FiresTheLoginEventWithTheStateAtThatMoment() {
    let reports = Journal<ErrorReport<Action, AppState>>()
    let unauthorized = ErrorReportingMiddleware<Action, AppState>(
      error: { action in
        if case .response(let status, _) = action, status == 401 { return HTTPError(status: 401) }
        return nil
      },
      handler: { report in
        reports.append(report)
        report.dispatcher.dispatch(.showLogin)
      }
    )
    let store = Store(
      initialState: AppState(),
      middlewares: [unauthorized],
      scheduler: TestScheduler(),
      reducer: Self.reduce
    )

    store.send(.request("/profile"))
    store.send(.response(status: 200, path: "/profile"))
    #expect(reports.values.isEmpty)
    #expect(!store.state.loginShown)

    store.send(.request("/orders"))
    store.send(.response(status: 401, path: "/orders"))

    #expect(store.state.loginShown)
    #expect(reports.values.count == 1)
    let report = reports.values.first
    #expect(report?.error as? HTTPError == HTTPError(status: 401))
    #expect(report?.sequence == 4)
    #expect(report?.state.lastPath == "/orders")
    #expect(report?.state.log == ["200 /profile", "401 /orders"])
    #expect(report?.state.loginShown == false)
    guard case .input(let input) = report?.source else {
      Issue.record("expected an input source")
      return
    }
    #expect(input == .response(status: 401, path: "/orders"))
  }

  // A command that throws reaches the handler through the store's diagnostics hook.
  @Test func aFailingCommandIsRoutedWithTheLatestState() async {
    struct Offline: Error {}
    let reports = Journal<ErrorReport<Action, AppState>>()
    let errors = ErrorReportingMiddleware<Action, AppState> { report in
      reports.append(report)
      report.dispatcher.dispatch(.showLogin)
    }
    let store = Store(
      initialState: AppState(),
      middlewares: [errors],
      scheduler: TestScheduler(),
      diagnostics: { diagnostic in
        if case .effectFailed(let effect, let error) = diagnostic {
          errors.reportFailure(error, source: effect)
        }
      },
      reducer: Self.reduce
    )

    store.send(.request("/sync"))
    store.run("sync") { _, _ in throw Offline() }

    // The command has ended (its failure reported through the diagnostics hook, which ran in its
    // task) and what the report's dispatcher sent is reduced.
    await store.finish()
    #expect(reports.values.count == 1)
    let report = reports.values.first
    #expect(report?.error is Offline)
    #expect(report?.state.lastPath == "/sync")
    #expect(report?.sequence == nil)
    guard case .failure(let source) = report?.source else {
      Issue.record("expected a failure source")
      return
    }
    #expect(source == "sync")
    // The report's dispatcher reaches the store, so the app can react to the failure.
    #expect(store.state.loginShown)
  }

  @Test func aFailureBeforeAnyInputNeedsAState() {
    let reports = Journal<String>()
    let errors = ErrorReportingMiddleware<Action, AppState> { reports.append($0.state.lastPath) }
    struct Failed: Error {}

    #expect(!errors.reportFailure(Failed(), source: "boot"))
    #expect(errors.reportFailure(Failed(), source: "boot", state: AppState(lastPath: "/start")))
    #expect(reports.values == ["/start"])
  }
}
