import Foundation

/// How the table and the notes write numbers.
package enum Format {
  /// `1234567` as `1,234,567`.
  package static func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var result = number < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }

  /// `value` with `decimals` digits after the point.
  package static func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  /// A duration in seconds, in ms or µs.
  package static func milliseconds(_ seconds: Double) -> String {
    switch seconds {
    case 10e-3...: "\(fixed(seconds * 1e3, 1)) ms"
    case 1e-3...: "\(fixed(seconds * 1e3, 2)) ms"
    default: "\(fixed(seconds * 1e6, 1)) µs"
    }
  }

  /// Operations per second, as `12.3 M/s`.
  package static func rate(_ perSecond: Double) -> String {
    switch perSecond {
    case 1e9...: "\(fixed(perSecond / 1e9, 2)) G/s"
    case 1e6...: "\(fixed(perSecond / 1e6, 1)) M/s"
    case 1e3...: "\(fixed(perSecond / 1e3, 1)) k/s"
    default: "\(fixed(perSecond, 0)) /s"
    }
  }

  /// A byte count in megabytes (10⁶ bytes), signed: `+1.2 MB`, `24.8 MB`.
  package static func megabytes(_ count: Int, signed: Bool = false) -> String {
    let sign = count < 0 ? "-" : (signed ? "+" : "")
    return sign + "\(fixed(Double(count.magnitude) / 1e6, 1)) MB"
  }

  /// A byte count in binary units, signed: `+312.5 KiB`, `-8.0 KiB`, `1.2 MiB`.
  package static func bytes(_ count: Int, signed: Bool = false) -> String {
    let sign = count < 0 ? "-" : (signed ? "+" : "")
    let magnitude = Double(count.magnitude)
    let text =
      switch magnitude {
      case 0x4000_0000...: "\(fixed(magnitude / 0x4000_0000, 2)) GiB"
      case 0x10_0000...: "\(fixed(magnitude / 0x10_0000, 1)) MiB"
      case 0x400...: "\(fixed(magnitude / 0x400, 1)) KiB"
      default: "\(Int(magnitude)) B"
      }
    return sign + text
  }
}
