import CFFmpeg

/// SHA-256 (FIPS 180-4) by libavutil's `av_sha`, for cache keys and asset
/// digests: the same bytes give the same digest on every machine.
///
///     var hash = SHA256()
///     hash.update("abc")
///     hash.hexDigest()   // "ba7816bf…f20015ad"
///
/// The hash owns its `AVSHA` state, so it cannot be copied; `digest()` and
/// `hexDigest()` finish it.
public struct SHA256: ~Copyable {
  private let context: OpaquePointer

  public init() {
    // av_sha_alloc only fails when malloc does; av_sha_init only for a bit
    // count other than 160, 224 or 256.
    guard let context = av_sha_alloc() else { fatalError("av_sha_alloc: out of memory") }
    av_sha_init(context, 256)
    self.context = context
  }

  deinit { av_free(UnsafeMutableRawPointer(context)) }

  /// Adds the UTF-8 bytes of `text`.
  public mutating func update(_ text: String) { update(Array(text.utf8)) }

  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { av_sha_update(context, $0.baseAddress, $0.count) }
  }

  /// The 32-byte digest of everything added.
  public consuming func digest() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    av_sha_final(context, &digest)
    return digest
  }

  /// The digest as 64 lowercase hexadecimal digits.
  public consuming func hexDigest() -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in digest() {
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The hex digest of `bytes`.
  public static func hex(_ bytes: [UInt8]) -> String {
    var hash = SHA256()
    hash.update(bytes)
    return hash.hexDigest()
  }
}
