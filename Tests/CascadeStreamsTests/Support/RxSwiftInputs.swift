import CascadeStreams
import CascadeTestSupport
import CascadeTesting

/// Hot inputs that several of RxSwift's marble test files share, for the conformance suites
/// that re-express them.
enum RxSwiftInputs {
  static let failure = TestError("test")

  /// The values of RxSwift's take, skip and elementAt cases, without an ending.
  ///
  /// Two come before the subscription at 200 and seventeen after it, from 210 to 630; the cases
  /// add their own ending.
  static let values: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(70), 6), .next(.seconds(150), 4), .next(.seconds(210), 9),
    .next(.seconds(230), 13), .next(.seconds(270), 7), .next(.seconds(280), 1),
    .next(.seconds(300), -1), .next(.seconds(310), 3), .next(.seconds(340), 8),
    .next(.seconds(370), 11), .next(.seconds(410), 15), .next(.seconds(415), 16),
    .next(.seconds(460), 72), .next(.seconds(510), 76), .next(.seconds(560), 32),
    .next(.seconds(570), -100), .next(.seconds(580), -3), .next(.seconds(590), 5),
    .next(.seconds(630), 10),
  ]

  /// The seventeen of ``values`` after the subscription at 200.
  static var valuesAfterSubscription: [Recorded<StreamEvent<Int, TestError>>] {
    Array(values.dropFirst(2))
  }

  /// The values of RxSwift's takeWhile and skipWhile cases, without an ending.
  ///
  /// Primes from 210 to 350 (2, 5, 13, 3, 7), then 4, 17, 8 and 23 up to 500; the cases add
  /// their own ending.
  static let primesFirst: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(90), -1), .next(.seconds(110), -1), .next(.seconds(210), 2),
    .next(.seconds(260), 5), .next(.seconds(290), 13), .next(.seconds(320), 3),
    .next(.seconds(350), 7), .next(.seconds(390), 4), .next(.seconds(410), 17),
    .next(.seconds(450), 8), .next(.seconds(500), 23),
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
}
