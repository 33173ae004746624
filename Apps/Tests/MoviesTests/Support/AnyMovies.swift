import AppSupport
import CascadeStreams
import MoviesCore

/// The service `makeMovies` returns, as a concrete type: the scenario harness is generic over
/// one `AppService` type, which an existential is not.
final class AnyMovies: AppService {
  let base: any AppService<MoviesIntent, MoviesState>
  /// Runs when the service is done with (stops its server).
  let onFinish: @Sendable () async -> Void

  init(
    _ base: any AppService<MoviesIntent, MoviesState>,
    onFinish: @escaping @Sendable () async -> Void = {}
  ) {
    self.base = base
    self.onFinish = onFinish
  }

  var architecture: Architecture { base.architecture }
  var currentState: MoviesState { base.currentState }
  var states: Observable<MoviesState, Never> { base.states }
  func send(_ intent: MoviesIntent) { base.send(intent) }
  func finish() async { await base.finish() }
}
