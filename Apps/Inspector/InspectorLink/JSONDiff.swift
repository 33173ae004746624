public import Foundation

/// The difference of two JSON texts, path by path: what the inspector shows as a step's diff.
///
/// Both texts are expected to come from one encoder with sorted keys (the live endpoint's, a
/// recording's states), so that equal values are equal bytes. The walk compares each member's
/// bytes and descends only into those that differ: a step that changes one field of a state of
/// several megabytes costs a scan of its bytes, not a parse of them (nor a `Mirror` walk of
/// the Swift value, as swift-custom-dump's diff does). Each change is a pair of lines:
///
/// ```
/// - tasks[17].done: false
/// + tasks[17].done: true
/// ```
///
/// An array's common head and tail are matched first, so an insertion or a removal shows as one
/// `+` or `-` line. At most `limit` lines are written (then `… more changes`), each value at most
/// ``valueLimit`` bytes (then `…`); nesting deeper than ``depthLimit`` is compared as a whole.
/// Malformed JSON (a recording's damaged line) is compared as a whole, never read out of
/// bounds.
public enum JSONDiff {
  /// How deep the walk descends; deeper values are compared whole.
  public static let depthLimit = 64
  /// The most bytes of a value a line shows.
  public static let valueLimit = 160

  /// The changes from `before` to `after`, a line each.
  ///
  /// - Parameters:
  ///   - before: The JSON before.
  ///   - after: The JSON after.
  ///   - limit: The most lines written (then `… more changes`).
  ///   - path: The path of the two values (a field's name), written before each change's own
  ///     (`tasks` gives `tasks[17].done`); empty for a whole state.
  /// - Returns: The lines, or `nil` when the two are the same but for spacing.
  public static func text(
    from before: Data,
    to after: Data,
    limit: Int = 200,
    path: String = ""
  ) -> String? {
    if before == after { return nil }
    return before.withUnsafeBytes { rawBefore in
      after.withUnsafeBytes { rawAfter in
        var walker = Walker(
          before: rawBefore.bindMemory(to: UInt8.self),
          after: rawAfter.bindMemory(to: UInt8.self),
          limit: max(2, limit)
        )
        let b = walker.trimmed(walker.before, 0..<walker.before.count)
        let a = walker.trimmed(walker.after, 0..<walker.after.count)
        walker.compare(b, a, path: path, depth: 0)
        if walker.lines.isEmpty { return nil }  // only the spacing differed
        if walker.truncated { walker.lines.append("… more changes") }
        return walker.lines.joined(separator: "\n")
      }
    }
  }

  /// The keys of `json`'s top-level object, in their order; `nil` if it is not an object.
  public static func topLevelKeys(of json: Data) -> [String]? {
    topLevelMembers(of: json)?.map(\.key)
  }

  /// The members of `json`'s top-level object, each key with its value's bytes' range in `json`,
  /// in their order, found without reading the values; `nil` if it is not an object.
  public static func topLevelMembers(of json: Data) -> [(key: String, value: Range<Int>)]? {
    json.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let walker = Walker(before: bytes, after: bytes, limit: 2)
      let range = walker.trimmed(bytes, 0..<bytes.count)
      guard !range.isEmpty, bytes[range.lowerBound] == Walker.openBrace,
        let members = Walker.members(bytes, range)
      else { return nil }
      return members.map { (Walker.key(bytes, $0.key), $0.value) }
    }
  }

  private struct Walker {
    let before: UnsafeBufferPointer<UInt8>
    let after: UnsafeBufferPointer<UInt8>
    let limit: Int
    var lines: [String] = []
    var truncated = false

    init(before: UnsafeBufferPointer<UInt8>, after: UnsafeBufferPointer<UInt8>, limit: Int) {
      self.before = before
      self.after = after
      self.limit = limit
    }

    /// `range` without its leading and trailing spaces.
    func trimmed(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
      var lower = range.lowerBound
      var upper = range.upperBound
      while lower < upper, Self.isSpace(p[lower]) { lower += 1 }
      while upper > lower, Self.isSpace(p[upper - 1]) { upper -= 1 }
      return lower..<upper
    }

    mutating func compare(_ b: Range<Int>, _ a: Range<Int>, path: String, depth: Int) {
      guard !truncated, !same(b, a) else { return }
      guard depth < JSONDiff.depthLimit, !b.isEmpty, !a.isEmpty else {
        changed(b, a, path: path)
        return
      }
      switch (before[b.lowerBound], after[a.lowerBound]) {
      case (Self.openBrace, Self.openBrace):
        guard let bm = Self.members(before, b), let am = Self.members(after, a) else {
          changed(b, a, path: path)
          return
        }
        compareMembers(bm, am, path: path, depth: depth)
      case (Self.openBracket, Self.openBracket):
        guard let be = Self.elements(before, b), let ae = Self.elements(after, a) else {
          changed(b, a, path: path)
          return
        }
        compareElements(be, ae, path: path, depth: depth)
      default:
        changed(b, a, path: path)
      }
    }

    private mutating func compareMembers(
      _ b: [(key: Range<Int>, value: Range<Int>)],
      _ a: [(key: Range<Int>, value: Range<Int>)],
      path: String,
      depth: Int
    ) {
      var afterKeys: [String: Int] = [:]
      afterKeys.reserveCapacity(a.count)
      for (index, member) in a.enumerated() { afterKeys[Self.key(after, member.key)] = index }
      var matched = Set<Int>()
      for member in b {
        let key = Self.key(before, member.key)
        let memberPath = Self.join(path, key: key)
        if let index = afterKeys[key] {
          matched.insert(index)
          compare(member.value, a[index].value, path: memberPath, depth: depth + 1)
        } else {
          line("-", memberPath, before, member.value)
        }
      }
      for (index, member) in a.enumerated() where !matched.contains(index) {
        line("+", Self.join(path, key: Self.key(after, member.key)), after, member.value)
      }
    }

    private mutating func compareElements(
      _ b: [Range<Int>],
      _ a: [Range<Int>],
      path: String,
      depth: Int
    ) {
      let shorter = min(b.count, a.count)
      var head = 0
      while head < shorter, same(b[head], a[head]) { head += 1 }
      var tail = 0
      while tail < shorter - head, same(b[b.count - 1 - tail], a[a.count - 1 - tail]) {
        tail += 1
      }
      let bMiddle = head..<(b.count - tail)
      let aMiddle = head..<(a.count - tail)
      let paired = min(bMiddle.count, aMiddle.count)
      for offset in 0..<paired {
        let index = head + offset
        compare(b[index], a[index], path: path + "[\(index)]", depth: depth + 1)
      }
      for index in bMiddle.dropFirst(paired) { line("-", path + "[\(index)]", before, b[index]) }
      for index in aMiddle.dropFirst(paired) { line("+", path + "[\(index)]", after, a[index]) }
    }

    private func same(_ b: Range<Int>, _ a: Range<Int>) -> Bool {
      guard b.count == a.count else { return false }
      guard let bBase = before.baseAddress, let aBase = after.baseAddress else { return b.isEmpty }
      return memcmp(bBase + b.lowerBound, aBase + a.lowerBound, b.count) == 0
    }

    private mutating func changed(_ b: Range<Int>, _ a: Range<Int>, path: String) {
      line("-", path, before, b)
      line("+", path, after, a)
    }

    private mutating func line(
      _ sign: String,
      _ path: String,
      _ p: UnsafeBufferPointer<UInt8>,
      _ range: Range<Int>
    ) {
      guard !truncated else { return }
      guard lines.count < limit else {
        truncated = true
        return
      }
      let shown = range.prefix(JSONDiff.valueLimit)
      var value = String(decoding: UnsafeBufferPointer(rebasing: p[shown]), as: UTF8.self)
      if shown.count < range.count { value += "…" }
      lines.append("\(sign) \(path.isEmpty ? "(the whole value)" : path): \(value)")
    }

    // MARK: Scanning

    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")

    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func skipSpace(_ p: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int {
      var index = index
      while index < end, isSpace(p[index]) { index += 1 }
      return index
    }

    /// The index after the string starting at `index` (a quote); `nil` if it does not end.
    static func stringEnd(_ p: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int? {
      var index = index + 1
      while index < end {
        switch p[index] {
        case backslash: index += 2
        case quote: return index + 1
        default: index += 1
        }
      }
      return nil
    }

    /// The index after the value starting at `index`; `nil` if it does not end before `end`.
    static func valueEnd(_ p: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int? {
      guard index < end else { return nil }
      switch p[index] {
      case quote:
        return stringEnd(p, index, end)
      case openBrace, openBracket:
        var depth = 0
        var at = index
        while at < end {
          switch p[at] {
          case quote:
            guard let next = stringEnd(p, at, end) else { return nil }
            at = next
            continue
          case openBrace, openBracket:
            depth += 1
          case closeBrace, closeBracket:
            depth -= 1
            if depth == 0 { return at + 1 }
          default:
            break
          }
          at += 1
        }
        return nil
      default:
        var at = index
        while at < end, !isSpace(p[at]), p[at] != comma, p[at] != closeBrace,
          p[at] != closeBracket
        {
          at += 1
        }
        return at > index ? at : nil
      }
    }

    /// An object's members, its keys' and values' ranges; `nil` if it is malformed.
    static func members(
      _ p: UnsafeBufferPointer<UInt8>,
      _ range: Range<Int>
    ) -> [(key: Range<Int>, value: Range<Int>)]? {
      guard range.count >= 2, p[range.upperBound - 1] == closeBrace else { return nil }
      let close = range.upperBound - 1
      var members: [(key: Range<Int>, value: Range<Int>)] = []
      // A step's message has up to five members, its step five or six: one allocation.
      members.reserveCapacity(8)
      var at = skipSpace(p, range.lowerBound + 1, close)
      while at < close {
        guard p[at] == quote, let keyEnd = stringEnd(p, at, close) else { return nil }
        let key = at..<keyEnd
        at = skipSpace(p, keyEnd, close)
        guard at < close, p[at] == colon else { return nil }
        at = skipSpace(p, at + 1, close)
        guard let valueEnd = valueEnd(p, at, close) else { return nil }
        members.append((key, at..<valueEnd))
        at = skipSpace(p, valueEnd, close)
        guard at < close else { break }
        guard p[at] == comma else { return nil }
        at = skipSpace(p, at + 1, close)
      }
      return members
    }

    /// An array's elements' ranges; `nil` if it is malformed.
    static func elements(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>]? {
      guard range.count >= 2, p[range.upperBound - 1] == closeBracket else { return nil }
      let close = range.upperBound - 1
      var elements: [Range<Int>] = []
      var at = skipSpace(p, range.lowerBound + 1, close)
      while at < close {
        guard let valueEnd = valueEnd(p, at, close) else { return nil }
        elements.append(at..<valueEnd)
        at = skipSpace(p, valueEnd, close)
        guard at < close else { break }
        guard p[at] == comma else { return nil }
        at = skipSpace(p, at + 1, close)
      }
      return elements
    }

    /// A key's text, as written between its quotes.
    static func key(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
      String(
        decoding: UnsafeBufferPointer(rebasing: p[(range.lowerBound + 1)..<(range.upperBound - 1)]),
        as: UTF8.self
      )
    }

    /// `path.key`, or `path["key"]` for a key that is not an identifier.
    static func join(_ path: String, key: String) -> String {
      let isIdentifier =
        key.utf8.first.map { !(0x30...0x39).contains($0) } == true
        && key.utf8.allSatisfy { byte in
          (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
            || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
        }
      if isIdentifier { return path.isEmpty ? key : path + "." + key }
      return path + "[\"" + key + "\"]"
    }
  }
}
