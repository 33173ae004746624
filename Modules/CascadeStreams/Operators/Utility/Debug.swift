extension ObservableType {
  /// Logs every event of the stream, and each subscription and its end, prefixed with
  /// `identifier`: RxSwift's `debug`, passing everything through unchanged.
  ///
  /// Each line reads `identifier -> subscribed`, `identifier -> Event next(value)`,
  /// `identifier -> Event error(failure)`, `identifier -> Event completed` or
  /// `identifier -> isDisposed`, as RxSwift prints them (without the timestamp). It returns an
  /// ``Observable``, so it can end a chain whose type is spelled out, as in a reactor's
  /// `transform(action:)`:
  ///
  /// ```swift
  /// func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
  ///   action.debug("action")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The prefix of every line. Default: the call's file, line and function.
  ///   - fileID: The calling file, for the default identifier.
  ///   - line: The calling line, for the default identifier.
  ///   - function: The calling function, for the default identifier.
  ///   - log: Where the lines go. Default: standard output, through `print`.
  /// - Returns: The same stream, logged.
  public func debug(
    _ identifier: String? = nil,
    fileID: String = #fileID,
    line: UInt = #line,
    function: String = #function,
    log: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Observable<Element, Failure> {
    let prefix = identifier ?? "\(fileID):\(line) (\(function))"
    return self.do(
      onNext: { log("\(prefix) -> Event next(\($0))") },
      onError: { log("\(prefix) -> Event error(\($0))") },
      onCompleted: { log("\(prefix) -> Event completed") },
      onSubscribe: { log("\(prefix) -> subscribed") },
      onDispose: { log("\(prefix) -> isDisposed") }
    )
    .asObservable()
  }
}
