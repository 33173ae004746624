public import CascadeStreams
import CustomDump
import IssueReporting

extension TestableObserver where Element: Equatable, Failure: Equatable {
  /// Reports a test failure, with a diff, unless the recorded events equal `expected`.
  ///
  /// The failure is reported through IssueReporting, so it fails a Swift Testing test and an
  /// XCTest test alike, at the caller's source location.
  ///
  /// ```swift
  /// observer.assertEvents([.next(.seconds(210), 1), .completed(.seconds(220))])
  /// ```
  ///
  /// A mismatch reads:
  ///
  /// ```
  /// Recorded events differ from the expected ones
  ///
  ///     [
  ///       [0]: .next(…),
  ///   -   [1]: .completed(220.0 seconds)
  ///   +   [1]: .completed(230.0 seconds)
  ///     ]
  ///
  /// (Expected: -, Actual: +)
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The events expected, in order, with their virtual times.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertEvents(
    _ expected: [Recorded<StreamEvent<Element, Failure>>],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = events
    guard actual != expected else { return }
    reportMismatch(
      "Recorded events differ from the expected ones",
      expected: expected,
      actual: actual,
      note: message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension TestableObserver where Element: Equatable {
  /// Reports a test failure, with a diff, unless the recorded events match `expected`; failures
  /// that are not `Equatable` match when they print the same.
  ///
  /// - Parameters:
  ///   - expected: The events expected, in order, with their virtual times.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertEvents(
    _ expected: [Recorded<StreamEvent<Element, Failure>>],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = events
    let matches =
      actual.count == expected.count
      && zip(actual, expected).allSatisfy { actual, expected in
        actual.time == expected.time
          && String(customDumping: actual.value) == String(customDumping: expected.value)
      }
    guard !matches else { return }
    reportMismatch(
      "Recorded events differ from the expected ones",
      expected: expected,
      actual: actual,
      note: message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Reports a test failure, with a diff, unless the values received, without their times,
  /// equal `expected`.
  ///
  /// ```swift
  /// observer.assertValues([1, 2, 3])
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The values expected, in order.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertValues(
    _ expected: [Element],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = values
    guard actual != expected else { return }
    reportMismatch(
      "Received values differ from the expected ones",
      expected: expected,
      actual: actual,
      note: message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension TestableObservable {
  /// Reports a test failure, with a diff, unless the recorded subscription windows equal
  /// `expected`.
  ///
  /// ```swift
  /// source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(220))])
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The windows expected, in subscription order.
  ///   - message: A note added to the failure message.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func assertSubscriptions(
    _ expected: [SubscriptionWindow],
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = subscriptions
    guard actual != expected else { return }
    reportMismatch(
      "Subscription windows differ from the expected ones",
      expected: expected,
      actual: actual,
      note: message(),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
