// ByteSize: file sizes as job files write them, wherever a size is taken
// (`maxBytes:` of gif, mp4 and webm, and the command line's
// `--cache-max-bytes`, so a store's bound is written as a budget is).
//
//   2000000  1e7   bytes (a YAML number in exponent form too: 10 000 000)
//   10MB  1.5 MB   SI: 10 000 000 and 1 500 000 bytes (also kB, GB, TB; B alone is bytes)
//   10MiB 512 KiB  binary: 10 485 760 and 524 288 bytes (also GiB, TiB)
//
// GitHub's "10 MB" upload limit is SI megabytes. A fractional size is
// rounded down to whole bytes.

public enum ByteSize {
  /// Bytes per unit; units are case-sensitive except that `KB` is taken as `kB`.
  static let units: [String: Double] = [
    "B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024, "MiB": 1_048_576,
    "GiB": 1_073_741_824, "TiB": 1_099_511_627_776,
  ]

  /// The bytes `text` names (`10MB`, `1.5 MiB`, `2000000`, `1e7`), or nil.
  public static func bytes(_ text: String) -> Int? {
    let trimmed = text.trimmingSpaces
    var number = String(trimmed.prefix { ("0"..."9").contains($0) || $0 == "." })
    var rest = trimmed.dropFirst(number.count)
    // An exponent, as YAML writes a number: `1e7`, `2.5E+6`.
    if let e = rest.first, e == "e" || e == "E" {
      let signed = rest.dropFirst().first.map { $0 == "+" || $0 == "-" } ?? false
      let exponent = rest.dropFirst(signed ? 2 : 1).prefix { ("0"..."9").contains($0) }
      if !exponent.isEmpty {
        number += rest.prefix((signed ? 2 : 1) + exponent.count)
        rest = rest.dropFirst((signed ? 2 : 1) + exponent.count)
      }
    }
    let unit = String(rest).trimmingSpaces
    guard !number.isEmpty, let value = Double(number), let scale = unit.isEmpty ? 1 : units[unit] else { return nil }
    let bytes = (value * scale).rounded(.down)
    guard bytes.isFinite, bytes < 0x1p62 else { return nil }
    return Int(bytes)
  }
}

extension JobDecoder {
  /// A size in bytes in `range`: a whole number or `10MB`, `10MiB`, … (`ByteSize`).
  func byteSize(_ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Int>) throws(Diagnostic) -> Int {
    let expected = "a size from \(range.lowerBound) to \(range.upperBound) bytes (a number, or like 10MB or 10MiB)"
    // A plain number as YAML reads it (`0x100000` too), else a size as text.
    let number = node.number.flatMap { $0.isFinite && $0 >= 0 && $0 < 0x1p62 ? Int($0.rounded(.down)) : nil }
    guard let bytes = number ?? node.text.flatMap(ByteSize.bytes), range.contains(bytes) else {
      throw mismatch(node, path, expected: expected)
    }
    return bytes
  }
}
