import Media
import Testing

@Suite struct SHA256Tests {
  /// FIPS 180-4 / NIST CSRC example vectors, and block-boundary lengths
  /// checked against coreutils' sha256sum.
  @Test func knownVectors() {
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex(
        Array(
          "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            .utf8)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    #expect(
      SHA256.hex([UInt8](repeating: 0x61, count: 64))
        == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    #expect(
      SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Feeding bytes in pieces gives the same digest as all at once.
  @Test func incrementalUpdates() {
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for split in [1, 55, 56, 63, 64, 65, 500] {
      var hash = SHA256()
      hash.update(Array(bytes[..<split]))
      hash.update(Array(bytes[split...]))
      #expect(hash.hexDigest() == SHA256.hex(bytes), "split at \(split)")
    }
  }
}
