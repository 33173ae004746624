import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for the operators of `Single` (ReactiveX/RxSwift,
// Tests/RxSwiftTests/SingleTest.swift: test_map … test_asCompletableError, test_zip_tuple,
// test_zip_resultSelector), re-expressed on Cascade's `TestScheduler`.
@Suite(.checksResources)
struct SingleOperatorsTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: test_map
  @Test func map() {
    let observer = scheduler.start { Single<Int, TestError>.just(1).map { $0 * 2 }.asObservable() }
    observer.assertEvents([.next(.seconds(200), 2), .completed(.seconds(200))])
  }

  // RxSwift: test_compactMap
  @Test func compactMapKeepsAValue() {
    let observer = scheduler.start {
      Single<String, TestError>.just("1").compactMap { Int($0) }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 1), .completed(.seconds(200))])
  }

  // RxSwift: test_compactMapNil
  @Test func compactMapOfNilIsEmpty() {
    let observer = scheduler.start {
      Single<String, TestError>.just("a").compactMap { Int($0) }.asObservable()
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: test_flatMap
  @Test func flatMap() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(1).flatMap { .just($0 * 2) }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 2), .completed(.seconds(200))])
  }

  // RxSwift: test_flatMapMaybe
  @Test func flatMapMaybe() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(1).flatMapMaybe { .just($0 * 2) }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 2), .completed(.seconds(200))])
  }

  // RxSwift: test_flatMapCompletable
  @Test func flatMapCompletable() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(10).flatMapCompletable { _ in .empty() }.asObservable()
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: test_asMaybe
  @Test func asMaybe() {
    let observer = scheduler.start { Single<Int, TestError>.just(1).asMaybe().asObservable() }
    observer.assertEvents([.next(.seconds(200), 1), .completed(.seconds(200))])
  }

  // RxSwift: test_asCompletable
  @Test func asCompletable() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(5).asCompletable().asObservable()
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: test_asCompletableError
  @Test func asCompletableKeepsTheFailure() {
    let observer = scheduler.start {
      Single<Int, TestError>.error(Self.failure).asCompletable().asObservable()
    }
    observer.assertEvents([.error(.seconds(200), Self.failure)])
  }

  // RxSwift: test_zip_tuple
  @Test func zipTuple() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(1).zip(.just(2)).map { $0.0 + $0.1 }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 3), .completed(.seconds(200))])
  }

  // RxSwift: test_zip_resultSelector
  @Test func zipResultSelector() {
    let observer = scheduler.start {
      Single<Int, TestError>.just(1).zip(.just(2)) { $0 + $1 }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 3), .completed(.seconds(200))])
  }
}
