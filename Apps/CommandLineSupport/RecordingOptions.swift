import AppSupport
public import ArgumentParser

/// What an app's `--help` says about its recordings: the two options' lines and a paragraph.
public protocol RecordingHelp {
  /// The help of `--record FILE`.
  static var record: String { get }
  /// The help of `--replay FILE`.
  static var replay: String { get }
  /// The paragraph about recordings, with their exit statuses, for a command's discussion.
  static var discussion: String { get }
}

/// The `--record FILE` and `--replay FILE` options every sample app's command line takes, with
/// the app's own help texts.
///
/// ```swift
/// enum PlayRecordingHelp: RecordingHelp { … }
/// struct Play: AsyncParsableCommand {
///   @OptionGroup var recording: RecordingOptions<PlayRecordingHelp>
/// }
/// ```
///
/// The two exclude each other, and each needs a path: anything else is a usage error.
public struct RecordingOptions<Help: RecordingHelp>: ParsableArguments {
  /// The file to record the session to (created or replaced), if any.
  @Option(help: ArgumentHelp(Help.record, valueName: "FILE"))
  public var record: String?

  /// The recording to replay instead of running live, if any.
  @Option(help: ArgumentHelp(Help.replay, valueName: "FILE"))
  public var replay: String?

  /// The exit status when the recording cannot be created, or records of the session could not
  /// be written: ``ExitStatus/ioError``.
  public static var cannotRecord: Int32 { ExitStatus.ioError.rawValue }

  /// What `--help` says about recordings (``RecordingHelp/discussion``).
  public static var help: String { Help.discussion }

  /// Creates the options, with neither given.
  public init() {}

  /// Refuses `--record` with `--replay`, and an empty path.
  public func validate() throws {
    if record != nil, replay != nil {
      throw ValidationError("--record and --replay exclude each other")
    }
    if record?.isEmpty == true { throw ValidationError("--record needs a path") }
    if replay?.isEmpty == true { throw ValidationError("--replay needs a path") }
  }
}
