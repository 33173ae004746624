import CascadeStore
import IssueReporting

/// The checks behind every assertion of a ``TestStore`` (AT-33), and how their failures are
/// reported or, in non-exhaustive mode, skipped.
extension TestStore {
  /// Checks the state change of one reduced action against the assertion closure.
  func assertStep(
    _ step: TestStoreLog<State, Action>.Step,
    label: String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) {
    let (before, after) = (step.before, step.after)
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

  /// Fails for, or skips, the received actions not asserted before `label`.
  func reportUnassertedReceived(before label: String, at site: CallSite) {
    let actions = log.withLock { contents in
      defer { contents.received = [] }
      return contents.received.map(\.action)
    }
    guard !actions.isEmpty else { return }
    if log.exhaustivity == .on {
      report(
        """
        \(count(actions.count, "received action")) must be asserted before \(label):

        \(describeList(actions))
        """,
        at: site
      )
    } else {
      for action in actions {
        skip("Skipped receiving \(describe(action)) before \(label)", at: site)
      }
    }
  }

  /// Fails for, or skips, what is left at the end.
  ///
  /// That is the received actions not asserted and the commands still running or waiting; each
  /// is reported once.
  func reportLeftovers(at site: CallSite, when: String) {
    let parked = store.parkedCommandCount
    let (actions, commands, reportParked) = log.withLock { contents in
      let actions = contents.received.map(\.action)
      contents.received = []
      let commands = contents.commands
        .filter { !contents.reportedCommands.contains($0.key) }
        .sorted { $0.key < $1.key }
      contents.reportedCommands.formUnion(commands.map(\.key))
      let reportParked = parked > 0 && !contents.reportedParked
      if reportParked { contents.reportedParked = true }
      return (actions, commands.map(\.value.description), reportParked)
    }
    var messages: [String] = []
    if !actions.isEmpty {
      messages.append(
        """
        \(count(actions.count, "received action")) \(actions.count == 1 ? "was" : "were") not \
        asserted \(when):

        \(describeList(actions))

        Assert each with receive(_:), or set exhaustivity to .off.
        """
      )
    }
    if !commands.isEmpty {
      messages.append(
        """
        \(count(commands.count, "command")) \(commands.count == 1 ? "is" : "are") still \
        running \(when):

        \(commands.map { "  " + $0 }.joined(separator: "\n"))

        Let it finish (advance the clock it sleeps on), cancel it, or set exhaustivity to .off.
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
private func count(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}
