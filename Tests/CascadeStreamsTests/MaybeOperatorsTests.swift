import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's cases for the operators of `Maybe` (ReactiveX/RxSwift,
// Tests/RxSwiftTests/MaybeTest.swift: test_map … test_ifEmptySwitchToSingle, test_zip_tuple,
// test_zip_resultSelector), re-expressed on Cascade's `TestScheduler`.
@Suite(.checksResources)
struct MaybeOperatorsTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: test_map
  @Test func map() {
    let observer = scheduler.start { Maybe<Int, TestError>.just(1).map { $0 * 2 }.asObservable() }
    observer.assertEvents([.next(.seconds(200), 2), .completed(.seconds(200))])
  }

  // RxSwift: test_compactMap
  @Test func compactMapKeepsAValue() {
    let observer = scheduler.start {
      Maybe<String, TestError>.just("1").compactMap { Int($0) }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 1), .completed(.seconds(200))])
  }

  // RxSwift: test_compactMapNil
  @Test func compactMapOfNilIsEmpty() {
    let observer = scheduler.start {
      Maybe<String, TestError>.just("a").compactMap { Int($0) }.asObservable()
    }
    observer.assertEvents([.completed(.seconds(200))])
  }

  // RxSwift: test_flatMap
  @Test func flatMap() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.just(1).flatMap { .just($0 * 2) }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 2), .completed(.seconds(200))])
  }

  // RxSwift: test_ifEmptyDefault
  @Test func ifEmptyDefault() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.empty().ifEmpty(default: 5).asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 5), .completed(.seconds(200))])
  }

  // RxSwift: test_ifEmptySwitchToMaybe
  @Test func ifEmptySwitchToMaybe() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.empty().ifEmpty(switchTo: Maybe.just(10)).asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 10), .completed(.seconds(200))])
  }

  // RxSwift: test_ifEmptySwitchToSingle
  @Test func ifEmptySwitchToSingle() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.empty().ifEmpty(switchTo: Single.just(10)).asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 10), .completed(.seconds(200))])
  }

  @Test func ifEmptyKeepsAValueAndAFailure() {
    let outcomes = Recorder<Result<Int, TestError>>()
    Maybe<Int, TestError>.just(1).ifEmpty(default: 5).subscribe { outcomes.append($0) }
    Maybe<Int, TestError>.error(Self.failure).ifEmpty(switchTo: Single.just(10))
      .subscribe { outcomes.append($0) }
    #expect(outcomes.values == [.success(1), .failure(Self.failure)])
  }

  // RxSwift: test_zip_tuple
  @Test func zipTuple() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.just(1).zip(.just(2)).map { $0.0 + $0.1 }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 3), .completed(.seconds(200))])
  }

  // RxSwift: test_zip_resultSelector
  @Test func zipResultSelector() {
    let observer = scheduler.start {
      Maybe<Int, TestError>.just(1).zip(.just(2)) { $0 + $1 }.asObservable()
    }
    observer.assertEvents([.next(.seconds(200), 3), .completed(.seconds(200))])
  }
}
