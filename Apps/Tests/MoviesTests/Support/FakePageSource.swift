import AppTestSupport
import CascadeStreams
import CascadeTesting
import MoviesCore

/// A movie API on virtual time: each page answers 1 s after it is requested, with three films
/// per page, or fails as told; it records requests and cancellations.
final class FakePageSource: MoviePageSource {
  let scheduler: TestScheduler
  let totalPages: Int
  private let failures: LockedBox<[Int: MoviesError]>
  /// Each request: the page, at the virtual time it was requested.
  let requests = Recorder<Recorded<Int>>()
  /// Each request disposed of before it answered: the page, at the virtual time.
  let cancellations = Recorder<Recorded<Int>>()

  /// Pages that never answer.
  let hanging: Set<Int>
  /// How long each page takes (1 s unless told).
  let latencies: [Int: Duration]
  /// Whether a page answers even after it was disposed of (the answer must then be ignored).
  let ignoresCancellation: Bool

  init(
    scheduler: TestScheduler,
    totalPages: Int = 3,
    failing failures: [Int: MoviesError] = [:],
    hanging: Set<Int> = [],
    latencies: [Int: Duration] = [:],
    ignoresCancellation: Bool = false
  ) {
    self.scheduler = scheduler
    self.totalPages = totalPages
    self.failures = LockedBox(failures)
    self.hanging = hanging
    self.latencies = latencies
    self.ignoresCancellation = ignoresCancellation
  }

  static func movies(onPage page: Int) -> [Movie] {
    (1...3).map { Movie(id: (page - 1) * 3 + $0, title: "Film \((page - 1) * 3 + $0)") }
  }

  func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    Observable.create { observer in
      self.requests.append(Recorded(time: self.scheduler.now.offset, value: number))
      let failure = self.failures.value.removeValue(forKey: number)
      let answered = LockedBox(false)
      guard !self.hanging.contains(number) else {
        return Disposables.create {
          self.cancellations.append(Recorded(time: self.scheduler.now.offset, value: number))
        }
      }
      let timer = self.scheduler.schedule(after: self.latencies[number] ?? .seconds(1)) {
        answered.value = true
        if let failure {
          observer.onError(failure)
          return
        }
        observer.onNext(
          MoviePage(
            page: number,
            totalResults: self.totalPages * 3,
            totalPages: self.totalPages,
            results: Self.movies(onPage: number)
          )
        )
        observer.onCompleted()
      }
      return Disposables.create {
        if !answered.value {
          self.cancellations.append(Recorded(time: self.scheduler.now.offset, value: number))
        }
        if !self.ignoresCancellation { timer.dispose() }
      }
    }
  }
}
