import CascadeStore
import IssueReporting

/// The checks behind every assertion of a ``TestStore`` (AT-33), and how their failures are
/// reported or, in non-exhaustive mode, skipped.
extension TestStore {
  /// Checks the state change of one sent or received input against the assertion closure.
  func assertChange(
    _ change: TestStoreLog<State, Action, Received>.Change,
    label: String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) {
    let (before, after) = (change.before, change.after)
    guard let update = updateStateToExpectedResult else {
      // Nothing asserted: the state must not have changed.
      guard after != before else { return }
      let message = mismatchMessage(
        "State changed after \(label), but no change was asserted",
        expected: before,
        actual: after,
        note: ""
      )
      if log.exhaustivity == .on { report(message, at: site) } else { skip(message, at: site) }
      return
    }
    var expected = before
    var expectedFromActual = after
    do {
      try update(&expected)
      if log.exhaustivity != .on { try update(&expectedFromActual) }
    } catch {
      report("The assertion closure of \(label) threw an error: \(error)", at: site)
      return
    }
    if log.exhaustivity == .on {
      if expected == after {
        if after == before {
          report(
            """
            A state change was asserted after \(label), but neither the assertion closure nor \
            the action changed the state; omit the closure when no change is expected
            """,
            at: site
          )
        }
        return
      }
      report(mismatch(label, expected: expected, before: before, after: after), at: site)
    } else {
      // Only the fields the closure sets are checked: applied to the actual state, it must
      // change nothing.
      if expectedFromActual != after {
        report(
          mismatch(label, expected: expectedFromActual, before: before, after: after),
          at: site
        )
      } else if expected != after {
        skip(
          mismatchMessage(
            "Skipped assertions after \(label)",
            expected: expected,
            actual: after,
            note: ""
          ),
          at: site
        )
      }
    }
  }

  /// The failure of a state that is not the one expected.
  private func mismatch(_ label: String, expected: State, before: State, after: State) -> String {
    let title =
      after == before
      ? "A state change was asserted after \(label), but the state did not change"
      : "The state after \(label) does not match the expectation"
    return mismatchMessage(title, expected: expected, actual: after, note: "")
  }

  /// Fails for, or skips, the received inputs not asserted before `label`.
  func reportUnassertedReceived(before label: String, at site: CallSite) {
    let values = log.withLock { contents in
      defer { contents.received = [] }
      return contents.received.map(\.value)
    }
    guard !values.isEmpty else { return }
    if log.exhaustivity == .on {
      report(
        """
        \(count(values.count, "received \(driver.vocabulary.received)")) must be asserted \
        before \(label):

        \(describeList(values))
        """,
        at: site
      )
    } else {
      for value in values {
        skip("Skipped receiving \(describe(value)) before \(label)", at: site)
      }
    }
  }

  /// Fails for, or skips, what is left at the end.
  ///
  /// That is the received inputs not asserted and the work still running or waiting; each is
  /// reported once.
  func reportLeftovers(at site: CallSite, when: String) {
    let parked = driver.parkedCommandCount()
    let other = otherWork
    let (values, commands, reportParked, reportWork) = log.withLock { contents in
      let values = contents.received.map(\.value)
      contents.received = []
      let commands = contents.commands
        .filter { !contents.reportedCommands.contains($0.key) }
        .sorted { $0.key < $1.key }
      contents.reportedCommands.formUnion(commands.map(\.key))
      let reportParked = parked > 0 && !contents.reportedParked
      if reportParked { contents.reportedParked = true }
      let reportWork = other > 0 && !contents.reportedWork
      if reportWork { contents.reportedWork = true }
      return (values, commands.map(\.value.description), reportParked, reportWork)
    }
    var messages: [String] = []
    if !values.isEmpty {
      let noun = "received \(driver.vocabulary.received)"
      messages.append(
        """
        \(count(values.count, noun)) \(values.count == 1 ? "was" : "were") not asserted \
        \(when):

        \(describeList(values))

        Assert each with receive(_:), or set exhaustivity to .off.
        """
      )
    }
    if !commands.isEmpty {
      messages.append(
        """
        \(count(commands.count, driver.vocabulary.effect)) \(commands.count == 1 ? "is" : "are") still \
        running \(when):

        \(commands.map { "  " + $0 }.joined(separator: "\n"))

        Let it finish (advance the clock it sleeps on), cancel it, or set exhaustivity to .off.
        """
      )
    }
    if reportWork {
      let (verb, pronoun) = other == 1 ? ("is", "it") : ("are", "them")
      messages.append(
        """
        \(count(other, driver.vocabulary.effect)) started before the test store \(verb) still \
        running \(when)

        Let \(pronoun) end (advance the clock the work waits on), cancel \(pronoun), or set \
        exhaustivity to .off.
        """
      )
    }
    if reportParked {
      messages.append(
        """
        \(count(parked, "command")) \(parked == 1 ? "is" : "are") still waiting for the state \
        to allow \(parked == 1 ? "it" : "them") \(when)
        """
      )
    }
    for message in messages {
      if log.exhaustivity == .on { report(message, at: site) } else { skip(message, at: site) }
    }
  }

  /// Reports a test failure at `site`.
  func report(_ message: String, at site: CallSite) {
    reportIssue(
      message,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }

  /// Records a skipped assertion, and reports it as a warning if asked to.
  func skip(_ message: String, at site: CallSite) {
    let show = log.withLock { contents in
      contents.skipped.append(message)
      return contents.exhaustivity == .off(showSkippedAssertions: true)
    }
    guard show else { return }
    reportIssue(
      message,
      severity: .warning,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }
}

/// "1 command", "2 commands".
func count(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// "an action", "a mutation", "an event".
func article(_ noun: String) -> String {
  (noun.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + noun
}
