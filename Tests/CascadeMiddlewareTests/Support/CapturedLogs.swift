import CascadeStreams
import Logging

/// Log lines captured in memory, safe to append to from any thread.
///
/// ```swift
/// let logs = CapturedLogs()
/// let logger = logs.logger(level: .debug)
/// logger.info("hello")
/// #expect(logs.messages == ["hello"])
/// ```
final class CapturedLogs: Sendable {
  /// One captured line.
  struct Entry: Equatable, Sendable {
    var level: Logger.Level
    var message: String
    /// The handler's, the provider's and the line's metadata merged, values as text.
    var metadata: [String: String]
    var source: String
  }

  private let storage = LockedValue<[Entry]>([])

  /// Every line, in the order logged.
  var entries: [Entry] { storage.withLock { $0 } }

  /// Every line's message, in the order logged.
  var messages: [String] { entries.map(\.message) }

  func append(_ entry: Entry) {
    storage.withLock { $0.append(entry) }
  }

  /// A logger writing here, at `level`, without touching the global `LoggingSystem`.
  func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: label) { _ in InMemoryLogHandler(logs: self) }
    logger.logLevel = level
    return logger
  }
}

/// A `LogHandler` appending every line to a ``CapturedLogs``.
struct InMemoryLogHandler: LogHandler {
  let logs: CapturedLogs
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var merged = metadata
    if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
    if let own = event.metadata { merged.merge(own) { _, new in new } }
    logs.append(
      CapturedLogs.Entry(
        level: event.level,
        message: event.message.description,
        metadata: merged.mapValues(\.description),
        source: event.source
      )
    )
  }
}
