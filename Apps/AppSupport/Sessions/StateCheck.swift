public import CascadeStore
import CascadeStreams
import Foundation

/// A digest of a state, recorded after each input of a session so that a replay can prove it
/// reaches the same state: a recording whose inputs were edited, or replayed by code that no
/// longer computes what the recording's did, is refused instead of replayed into a state the
/// app's rules cannot produce.
///
/// The digest is 64-bit FNV-1a over the state's JSON, keys sorted, written as 16 hexadecimal
/// digits. It detects a change made by hand or by another program, not one made by someone who
/// recomputes the digests: it is a check, not a signature.
///
/// A recording holds one in the session's header (``SessionHeader/check``, the check of what the
/// service started from), and one after each input the architecture processed — after each
/// mutation, on a reactor:
///
/// ```
/// {"input":{"session":{"app":"rpg","architecture":"store","check":"5d0c3a8e1f92b7a4",…}},…}
/// {"input":{"rpg.store":{…}},"sequence":2,"time":0.01}
/// {"input":{"check":"9f1e0b6d2c4a8e37"},"sequence":3,"time":0.01}
/// ```
public struct StateCheck: Codable, Sendable, Hashable, CustomStringConvertible {
  /// The digest, as 16 hexadecimal digits.
  public var digest: String

  /// A check whose digest is `digest`.
  public init(digest: String) {
    self.digest = digest
  }

  /// The check of `value`: the digest of its JSON, keys sorted.
  ///
  /// - Throws: The encoder's error when `value` cannot be encoded.
  public init(of value: some Encodable) throws {
    let data = try sharedEncoder.encode(value)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    digest = String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Reads the digest, a string.
  public init(from decoder: any Decoder) throws {
    digest = try decoder.singleValueContainer().decode(String.self)
  }

  /// Writes the digest, a string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(digest)
  }

  /// The digest.
  public var description: String { digest }
}

/// The encoder of every state check, keys sorted so that equal states have equal digests
/// (`JSONEncoder` may be used from several threads at once).
private let sharedEncoder: JSONEncoder = {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return encoder
}()

/// Checks, during a replay, that each input leads to the state the recording says it led to.
///
/// A replayed service is built with ``middleware(of:)`` among its middlewares (the
/// factories of the apps' replay sessions do it); each input it processes takes the recording's
/// next ``StateCheck``. The first one that differs — or is missing, or left over at the end — is
/// kept, and the replay (``AppSession``) stops on it with
/// ``SessionReplayError/diverged(path:reason:)``.
///
/// ```swift
/// let recording = try SessionRecording<StoreSession<MoviesApp>>(contentsOf: url, command: "list")
/// let movies = StoreMovies(source: .none, middlewares: [recording.verifier.middleware(of: MoviesState.self)])
/// ```
public final class StateVerifier: Sendable {
  /// The recorded checks, with the sequence numbers of their records.
  private let checks: [(sequence: UInt64, check: StateCheck)]
  private let progress = LockedValue(Progress())

  private struct Progress: Sendable {
    var next = 0
    var mismatch: String?
    var installed = false
  }

  /// A verifier of `checks`, in the order recorded.
  init(checks: [(sequence: UInt64, check: StateCheck)]) {
    self.checks = checks
  }

  /// The middleware that checks each state the replayed service reaches: put it among the
  /// replayed service's middlewares.
  public func middleware<Input: Sendable, State: Encodable & Sendable>(
    of state: State.Type
  ) -> some Middleware<Input, State> {
    progress.withLock { $0.installed = true }
    return StateChecker<Input, State>(verifier: self)
  }

  /// Checks the state after the next input against the recording's next check.
  fileprivate func verify(_ state: some Encodable) {
    let index: Int? = progress.withLock { progress in
      guard progress.mismatch == nil else { return nil }
      defer { progress.next += 1 }
      return progress.next
    }
    guard let index else { return }
    guard index < checks.count else {
      if let last = checks.last {
        fail(
          "the recording has no state check for an input this run processed after the check "
            + "at record #\(last.sequence): records were removed from it"
        )
      } else {
        fail("the recording holds no state checks: they were removed from it")
      }
      return
    }
    let expected = checks[index]
    let found: StateCheck
    do {
      found = try StateCheck(of: state)
    } catch {
      fail("the state after the input before record #\(expected.sequence) cannot be encoded")
      return
    }
    if found != expected.check {
      fail(
        "the state this run reaches is not the one recorded at record #\(expected.sequence) "
          + "(the recording was changed, or this version of the app computes another state)"
      )
    }
  }

  private func fail(_ reason: String) {
    progress.withLock { progress in
      if progress.mismatch == nil { progress.mismatch = reason }
    }
  }

  /// Why the replay so far does not match the recording, if it does not.
  var mismatch: String? { progress.withLock { $0.mismatch } }

  /// Why the replay, ended, does not match the recording: a mismatch, or checks it did not
  /// reach (inputs were removed from the recording, or the service was built without
  /// ``middleware(of:)``).
  var mismatchAtEnd: String? {
    progress.withLock { progress in
      if let mismatch = progress.mismatch { return mismatch }
      guard progress.next < checks.count else { return nil }
      guard progress.installed else {
        return "the replayed service does not check the recorded states"
      }
      return "the replay ended before the state check at record "
        + "#\(checks[progress.next].sequence): inputs were removed from the recording"
    }
  }
}

/// Checks the state after each input a replayed service processes.
private struct StateChecker<Input: Sendable, State: Encodable & Sendable>: Middleware {
  let verifier: StateVerifier

  func process(_ record: MiddlewareRecord<Input, State>) {
    verifier.verify(record.state)
  }
}
