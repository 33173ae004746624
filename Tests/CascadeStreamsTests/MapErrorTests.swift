import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MapErrorTests {
  enum AppError: Error, Equatable {
    case wrapped(TestError)
  }

  @Test func transformsTheFailure() {
    let events = Recorder<StreamEvent<Int, AppError>>()
    Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onError(TestError("e"))
      return Disposables.empty
    }
    .mapError { AppError.wrapped($0) }
    .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .error(.wrapped(TestError("e")))])
  }

  @Test func eraseFailureKeepsTheError() {
    let failures = Recorder<String>()
    Observable<Int, TestError>.error(TestError("e")).eraseFailure()
      .subscribe(onError: { failures.append("\($0)") })
    #expect(failures.values == ["e"])
  }

  @Test func setFailureTypeLetsInfallibleStreamsJoinFallibleOnes() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable.just(1).setFailureType(to: TestError.self)
      .concat(with: Observable<Int, TestError>.error(TestError("e")))
      .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .error(TestError("e"))])
  }

  @Test func takeStillStopsASynchronousProducerThroughMapError() {
    let received = Recorder<Int>()
    Observable.from(1...).setFailureType(to: TestError.self).mapError { $0 }.take(2)
      .subscribe(onNext: { received.append($0) })
    #expect(received.values == [1, 2])
  }
}
