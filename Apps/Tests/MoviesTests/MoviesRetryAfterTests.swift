import AppTestSupport
import CascadeStreams
import CascadeTesting
import Foundation
import MoviesCore
import Testing

/// HTTP's Retry-After, parsed in each of its forms, and honoured by the resilient page source on
/// virtual time: the new attempt starts exactly when the server asked.
@Suite struct MoviesRetryAfterTests {
  static let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

  @Test(arguments: [
    ("120", Duration?.some(.seconds(120))),
    (" 0 ", .zero),
    ("99999999999999999999999", .seconds(1_000_000_000_000_000_000)),
    ("Sun, 06 Nov 1994 08:51:37 GMT", .seconds(120)),  // IMF-fixdate
    ("Sunday, 06-Nov-94 08:50:37 GMT", .seconds(60)),  // RFC 850
    ("Sun Nov  6 08:50:07 1994", .seconds(30)),  // asctime
    ("Sat, 05 Nov 1994 08:49:37 GMT", .zero),  // passed
    ("", nil), ("-5", nil), ("1.5", nil), ("soon", nil), ("Sun, 99 Nov 1994 08:49:37 GMT", nil),
  ])
  func parsesEachForm(_ value: String, _ expected: Duration?) {
    #expect(RetryAfter.parse(value, now: Self.now) == expected)
  }

  /// What the source did on virtual time: when each page was asked for, and when it ended.
  struct Run {
    var requests: [Duration]
    var end: Duration?
    var outcome: Result<Int, MoviesError>?
    var retries: [ResilientPageSource.Retry]
  }

  /// Page 1 from a source whose first answer (after 1 s) fails with `failure`, retried up to 3
  /// times with a 1 s backoff and Retry-After honoured up to 60 s.
  static func run(failing failure: MoviesError) -> Run {
    let scheduler = TestScheduler()
    let fake = FakePageSource(scheduler: scheduler, failing: [1: failure])
    let retries = Recorder<ResilientPageSource.Retry>()
    let source = fake.resilient(
      timeout: .seconds(10),
      attempts: 4,
      backoff: .constant(.seconds(1)),
      maxRetryAfter: .seconds(60),
      scheduler: scheduler,
      onRetry: { retries.append($0) }
    )
    let ended = LockedBox<(Duration, Result<Int, MoviesError>)?>(nil)
    let subscription = source.page(1).subscribe(
      onNext: { page in ended.value = (scheduler.now.offset, .success(page.page)) },
      onError: { error in ended.value = (scheduler.now.offset, .failure(error)) }
    )
    scheduler.advance(to: SchedulerInstant(offset: .seconds(600)))
    subscription.dispose()
    return Run(
      requests: fake.requests.values.map(\.time),
      end: ended.value?.0,
      outcome: ended.value?.1,
      retries: retries.values
    )
  }

  @Test func aRetryAfterWithinTheCapIsWaitedForExactly() {
    let run = Self.run(failing: .tooManyRequests(retryAfter: .seconds(7)))
    #expect(run.requests == [.zero, .seconds(8)])  // failed at 1 s, asked again 7 s later
    #expect(run.end == .seconds(9))
    #expect(run.outcome == .success(1))
    #expect(
      run.retries == [
        ResilientPageSource.Retry(
          page: 1,
          attempt: 2,
          attempts: 4,
          error: .tooManyRequests(retryAfter: .seconds(7)),
          delay: .seconds(7),
          serverAsked: true
        )
      ]
    )
  }

  @Test func aRetryAfterOverTheCapIsNotRetried() {
    let run = Self.run(failing: .tooManyRequests(retryAfter: .seconds(61)))
    #expect(run.requests == [.zero])
    #expect(run.end == .seconds(1))
    #expect(run.outcome == .failure(.tooManyRequests(retryAfter: .seconds(61))))
    #expect(run.retries.isEmpty)
  }

  @Test func aTooManyRequestsWithoutRetryAfterWaitsTheBackoff() {
    let run = Self.run(failing: .tooManyRequests(retryAfter: nil))
    #expect(run.requests == [.zero, .seconds(2)])
    #expect(run.outcome == .success(1))
    #expect(run.retries.map(\.serverAsked) == [false])
  }

  @Test(arguments: [
    MoviesError.notJSON(contentType: "text/html"), .bodyTooLarge(limit: 10),
    .malformedBody("not JSON"), .httpStatus(404),
  ])
  func aReplyThatIsNotAPageIsNotRetried(_ failure: MoviesError) {
    let run = Self.run(failing: failure)
    #expect(run.requests == [.zero])
    #expect(run.outcome == .failure(failure))
  }

  @Test(arguments: [
    MoviesError.truncatedBody(received: 5, expected: 10), .httpStatus(503),
    .transport("connection lost"),
  ])
  func aTransientFailureIsRetriedAfterTheBackoff(_ failure: MoviesError) {
    let run = Self.run(failing: failure)
    #expect(run.requests == [.zero, .seconds(2)])
    #expect(run.outcome == .success(1))
  }

  /// A failure read back from a recording is the one written, in Swift's synthesized form.
  @Test(arguments: [
    MoviesError.tooManyRequests(retryAfter: .milliseconds(1500)), .tooManyRequests(retryAfter: nil),
    .httpStatus(503), .truncatedBody(received: 5, expected: nil), .bodyTooLarge(limit: 10),
    .timeout, .notJSON(contentType: "text/html"),
  ])
  func aFailureDecodesAsItWasEncoded(_ failure: MoviesError) throws {
    let data = try JSONEncoder().encode(failure)
    #expect(try JSONDecoder().decode(MoviesError.self, from: data) == failure)
  }

  /// A number no client could have seen in a failure is refused when it is read, not trapped on
  /// later (a wait beyond what `Duration.components` holds trapped when it was printed).
  @Test(arguments: [
    #"{"tooManyRequests":{"retryAfter":[9000000000000000000,0]}}"#,
    #"{"tooManyRequests":{"retryAfter":[-1,0]}}"#,
    #"{"httpStatus":{"_0":1000}}"#,
    #"{"httpStatus":{"_0":-200}}"#,
    #"{"truncatedBody":{"received":-1,"expected":10}}"#,
    #"{"truncatedBody":{"received":1,"expected":-10}}"#,
    #"{"bodyTooLarge":{"limit":-1}}"#,
  ])
  func aFailureWithANumberOutOfRangeIsRefused(_ json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(MoviesError.self, from: Data(json.utf8))
    }
  }

  /// The longest wait a `Retry-After` may ask for reads back, and prints.
  @Test func theLongestWaitPrints() throws {
    let longest = try #require(RetryAfter.parse("99999999999999999999999", now: .now))
    let data = try JSONEncoder().encode(MoviesError.tooManyRequests(retryAfter: longest))
    #expect(
      try JSONDecoder().decode(MoviesError.self, from: data)
        == .tooManyRequests(retryAfter: longest)
    )
    #expect(MoviesError.seconds(longest) == "1000000000000000000 s")
    #expect(MoviesError.seconds(.milliseconds(1500)) == "1.5 s")
  }
}
