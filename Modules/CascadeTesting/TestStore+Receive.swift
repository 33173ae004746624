public import CascadeStore
import CascadeStreams

extension TestStore where Architecture.Received: Equatable {
  /// Asserts that the next input received is `expected`, and the state change it makes: an
  /// action a command (or a middleware) sent back to a store, a mutation of a reactor's
  /// asynchronous work, an event a loop's feedback emitted.
  ///
  /// ```swift
  /// await store.receive(.loaded(3)) { $0.count = 3 }
  /// ```
  ///
  /// If the input has not arrived yet, `receive` waits for it. On the ``clock`` it advances
  /// virtual time, one due item at a time, by at most `duration`, and stops where the input
  /// arrives; in real time it waits up to ``timeout`` for asynchronous work to run. Without a
  /// clock it waits up to `duration` or ``timeout``, whichever is longer, in real time. It fails,
  /// naming `expected`, if the input never arrives (at once when no work is in flight or
  /// waiting and nothing is due on the clock within `duration`), leaving the clock moved by the
  /// whole of `duration`.
  ///
  /// In exhaustive mode the *next* received input must be `expected`; otherwise `receive`
  /// skips the received inputs before the first one equal to `expected`.
  ///
  /// - Parameters:
  ///   - expected: The input expected.
  ///   - duration: How far `receive` may advance the ``clock`` while it waits; default zero, for
  ///     tests that advance the clock themselves.
  ///   - updateStateToExpectedResult: Turns the state before the input into the state
  ///     expected after it; without it, the input must not change the state.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func receive(
    _ expected: Received,
    within duration: Duration = .zero,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      describe(expected),
      within: duration,
      matching: { $0 == expected },
      mismatch: { actual in
        mismatchMessage(
          "Received \(describe(actual)) where \(describe(expected)) was expected",
          expected: expected,
          actual: actual,
          note: ""
        )
      },
      updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension TestStore where Architecture.Received == any CoreEvent {
  /// Asserts that the next event received by a `Core` is `expected`, and the
  /// state change it makes; see `receive(_:within:assert:)` for `Equatable` actions.
  ///
  /// ```swift
  /// await store.receive(PlayerCreated(name: "Ada")) { $0.players = ["Ada"] }
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The event expected.
  ///   - duration: How far `receive` may advance the ``clock`` while it waits.
  ///   - updateStateToExpectedResult: Turns the state before the event into the state
  ///     expected after it.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func receive<E: CoreEvent & Equatable>(
    _ expected: E,
    within duration: Duration = .zero,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      describe(expected),
      within: duration,
      matching: { ($0 as? E) == expected },
      mismatch: { actual in
        "Received \(describe(actual)) where \(describe(expected)) was expected"
      },
      updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension TestStore {
  /// Asserts that the next received input, seen as `form` sees it, is `expected`, and the state
  /// change it makes: for inputs that are not `Equatable` themselves but have an `Equatable`
  /// form, such as a `Core`'s events as an app records them.
  ///
  /// ```swift
  /// await store.receive(.playerHit(damage: 4), as: RecordedEvent.init) { $0.hp = 16 }
  /// ```
  ///
  /// It waits as `receive(_:within:assert:)` for `Equatable` inputs does. An input whose form is
  /// `nil`, or another value, fails the test with the difference between the two forms.
  ///
  /// - Parameters:
  ///   - expected: The form of the input expected.
  ///   - form: The form of a received input, or `nil` for an input that has none.
  ///   - duration: How far `receive` may advance the ``clock`` while it waits.
  ///   - updateStateToExpectedResult: Turns the state before the input into the state
  ///     expected after it.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func receive<Form: Equatable>(
    _ expected: Form,
    as form: (Received) -> Form?,
    within duration: Duration = .zero,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      describe(expected),
      within: duration,
      matching: { form($0) == expected },
      mismatch: { actual in
        let title = "Received \(describe(actual)) where \(describe(expected)) was expected"
        guard let actualForm = form(actual) else { return title + ", and it has no such form" }
        return mismatchMessage(title, expected: expected, actual: actualForm, note: "")
      },
      updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension TestStore {
  /// Asserts that the next received input matches `predicate`, and the state change it makes;
  /// for inputs that are not `Equatable`.
  ///
  /// ```swift
  /// let isLoaded: (Feature.Action) -> Bool = { if case .loaded = $0 { true } else { false } }
  /// await store.receive(where: isLoaded) { $0.isLoading = false }
  /// ```
  ///
  /// It waits as `receive(_:within:assert:)` for `Equatable` inputs does.
  ///
  /// - Parameters:
  ///   - predicate: Whether an input is the one expected.
  ///   - duration: How far `receive` may advance the ``clock`` while it waits.
  ///   - updateStateToExpectedResult: Turns the state before the input into the state
  ///     expected after it.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  public func receive(
    where predicate: (Received) -> Bool,
    within duration: Duration = .zero,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      "\(article(driver.vocabulary.received)) matching the predicate",
      within: duration,
      matching: predicate,
      mismatch: { actual in
        "Received \(describe(actual)), which does not match the predicate of receive(where:)"
      },
      updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Waits for a received input that `matching` accepts, takes it and checks its state change.
  func receive(
    _ description: String,
    within duration: Duration,
    matching: (Received) -> Bool,
    mismatch: (Received) -> String,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) async {
    let label = "receive(\(description))"
    let exhaustive = log.exhaustivity == .on
    let outcome = await waitForReceived(within: duration) { contents in
      exhaustive ? !contents.received.isEmpty : contents.received.contains { matching($0.value) }
    }
    if exhaustive {
      let step = log.withLock { contents in
        contents.received.isEmpty ? nil : contents.received.removeFirst()
      }
      guard let step else {
        report(neverArrived(description, within: duration, outcome, instead: []), at: site)
        return
      }
      guard matching(step.value) else {
        report(mismatch(step.value), at: site)
        return
      }
      assertChange(step.change, label: label, updateStateToExpectedResult, at: site)
    } else {
      typealias Step = TestStoreLog<State, Action, Received>.Step
      let (skipped, step) = log.withLock { contents -> ([Received], Step?) in
        guard let index = contents.received.firstIndex(where: { matching($0.value) }) else {
          return (contents.received.map(\.value), nil)
        }
        let skipped = contents.received[..<index].map(\.value)
        let step = contents.received[index]
        contents.received.removeSubrange(...index)
        return (skipped, step)
      }
      guard let step else {
        report(neverArrived(description, within: duration, outcome, instead: skipped), at: site)
        return
      }
      for value in skipped {
        skip("Skipped receiving \(describe(value)) before \(label)", at: site)
      }
      assertChange(step.change, label: label, updateStateToExpectedResult, at: site)
    }
  }

  /// Why a wait for a received input ended.
  enum WaitOutcome {
    case arrived
    /// Nothing left could send it: no work in flight or waiting, nothing due on the clock.
    case idle
    /// The real-time limit passed.
    case timedOut(Duration)
  }

  /// Waits until `arrived` holds.
  ///
  /// It advances the clock within `duration`, and waits in real time while commands are in
  /// flight or waiting. Giving up, it moves the clock to the end of `duration` and looks one last
  /// time.
  func waitForReceived(
    within duration: Duration,
    until arrived: (inout TestStoreLog<State, Action, Received>.Contents) -> Bool
  ) async -> WaitOutcome {
    let realClock = ContinuousClock()
    let limit = clock == nil ? max(timeout, duration) : timeout
    let realDeadline = realClock.now.advanced(by: limit)
    let virtualDeadline = clock.map { $0.now.advanced(by: duration) }
    while true {
      let generation = log.changes.generation
      await driver.settle()
      if log.withLock(arrived) { return .arrived }
      let outcome: WaitOutcome
      if realClock.now >= realDeadline {
        outcome = .timedOut(limit)
      } else if let clock, let virtualDeadline, let due = clock.nextDueTime,
        due <= virtualDeadline
      {
        await clock.advance(to: due)
        continue
      } else if isWorking || driver.parkedCommandCount() > 0 {
        // Wakes when a command ends, an input is reduced, something is scheduled on the clock
        // (work going to sleep on it) or all work has ended; the deadline only ends a hang.
        watchWork()
        await log.changes.wait(after: generation, until: realDeadline)
        continue
      } else {
        outcome = .idle
      }
      guard let clock, let virtualDeadline, clock.now < virtualDeadline else { return outcome }
      await clock.advance(to: virtualDeadline)
      await driver.settle()
      return log.withLock(arrived) ? .arrived : outcome
    }
  }

  /// The failure of a `receive` whose input never came.
  func neverArrived(
    _ description: String,
    within duration: Duration,
    _ outcome: WaitOutcome,
    instead: [Received]
  ) -> String {
    var message = "Expected to receive \(description), but it never arrived"
    switch outcome {
    case .arrived, .idle: message += ": " + driver.vocabulary.idle
    case .timedOut(let limit): message += " within \(limit) of real time"
    }
    if let clock {
      message +=
        duration == .zero
        ? "; the clock, at \(clock.now), was not advanced (advance it, or pass within:)"
        : "; the clock was advanced by \(duration), to \(clock.now)"
    }
    var commands = log.withLock {
      $0.commands.sorted { $0.key < $1.key }.map(\.value.description)
    }
    if case let other = otherWork, other > 0 {
      commands.append(count(other, driver.vocabulary.effect) + " started before the test store")
    }
    if !commands.isEmpty {
      message += "\n\nStill running:\n\n" + commands.map { "  " + $0 }.joined(separator: "\n")
    }
    if !instead.isEmpty {
      message += "\n\nReceived instead, not asserted:\n\n" + describeList(instead)
    }
    return message
  }
}
