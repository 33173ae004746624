import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's compactMap cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+CompactMapTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events, subscription windows and
// transform calls.
@Suite(.checksResources)
struct CompactMapConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's input: 1 to 11, of which 3 to 11 after the subscription at 200, completing at 600.
  static let numbers: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(110), 1), .next(.seconds(180), 2), .next(.seconds(230), 3),
    .next(.seconds(270), 4), .next(.seconds(340), 5), .next(.seconds(380), 6),
    .next(.seconds(390), 7), .next(.seconds(450), 8), .next(.seconds(470), 9),
    .next(.seconds(560), 10), .next(.seconds(580), 11), .completed(.seconds(600)),
  ]

  static func isPrime(_ number: Int) -> Bool {
    guard number > 1 else { return false }
    var divisor = 2
    while divisor * divisor <= number {
      if number % divisor == 0 { return false }
      divisor += 1
    }
    return true
  }

  // RxSwift: test_compactMapNilFromClosure (what follows the completion is never delivered)
  @Test func aTransformThatReturnsNilDropsTheValue() {
    let source = scheduler.createHotObservable(
      Self.numbers + [
        .next(.seconds(610), 12), .error(.seconds(620), Self.failure), .completed(.seconds(630)),
      ]
    )
    let invoked = Counter()
    let observer = scheduler.start {
      source.compactMap { number -> Int? in
        invoked.increment()
        return Self.isPrime(number) ? number : nil
      }
    }
    observer.assertEvents([
      .next(.seconds(230), 3), .next(.seconds(340), 5), .next(.seconds(390), 7),
      .next(.seconds(580), 11), .completed(.seconds(600)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(600))])
    #expect(invoked.value == 9)
  }

  // RxSwift: test_compactMapNilFromElement
  @Test func aNilElementIsDropped() {
    let source: HotObservable<Int?, TestError> = scheduler.createHotObservable([
      .next(.seconds(110), 1), .next(.seconds(180), 2), .next(.seconds(230), 3),
      .next(.seconds(270), nil), .next(.seconds(340), 5), .completed(.seconds(400)),
      .next(.seconds(410), 7), .error(.seconds(420), Self.failure), .completed(.seconds(430)),
    ])
    let invoked = Counter()
    let observer = scheduler.start {
      source.compactMap { number -> Int? in
        invoked.increment()
        return number
      }
    }
    observer.assertEvents([
      .next(.seconds(230), 3), .next(.seconds(340), 5), .completed(.seconds(400)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    #expect(invoked.value == 3)
  }

  // RxSwift: test_compactMapDisposed
  @Test func disposedBeforeTheEnd() {
    let source = scheduler.createHotObservable(Self.numbers)
    let invoked = Counter()
    let observer = scheduler.start(disposed: .seconds(400)) {
      source.compactMap { number -> Int? in
        invoked.increment()
        return Self.isPrime(number) ? number : nil
      }
    }
    observer.assertEvents([
      .next(.seconds(230), 3), .next(.seconds(340), 5), .next(.seconds(390), 7),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(400))])
    #expect(invoked.value == 5)
  }
}
