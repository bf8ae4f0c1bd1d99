import Foundation

/// What a PNG's colour chunks other than its ICC profile say its numbers
/// mean — cICP, sRGB, gAMA and cHRM — and which of them, with the profile,
/// decides, in the order Chromium takes them.
///
/// A browser shows a PNG of gAMA 1.0 (linear light), or of cICP's Display P3,
/// converted: taken as sRGB its colours would be up to a hundred levels off
/// (a linear mid grey 50 % drawn as 128 instead of 188). Chromium (Skia's
/// PNG decoder) reads, of the chunks before the image data:
/// 1. cICP, the highest-precedence colour chunk (PNG 3rd edition), when its
///    matrix is 0 (RGB) and its range full, of primaries and a transfer
///    function it knows;
/// 2. else the ICC profile (iCCP), when it reads as one;
/// 3. else sRGB, which is sRGB (its intent aside);
/// 4. else gAMA (above 0): a pure power curve, encoded = light^gAMA, on
///    cHRM's primaries and white (sRGB when they span no space), else on
///    sRGB's; without cHRM a gAMA within 5 % of 1/2.2 is "neutral"
///    (libpng's threshold) and the pixels sRGB. cHRM without gAMA says nothing.
///
/// The space is applied to grey and palette PNGs as to RGB ones (their
/// pixels are colours), as Chromium applies it. cICP's HDR transfer
/// functions (PQ, HLG) describe light beyond SDR white, which
/// a browser tone-maps for the display it has (Chromium draws PQ's code
/// 150 as 193, HLG's as 122): drawn as sRGB numbers they would be tens of
/// levels off, so such a PNG without an ICC profile to fall back on is
/// `hdr`, which the decoder refuses; with one, the profile decides. cICP's
/// XYZ primaries are not read: such a cICP is passed over as an unknown one
/// is.
///
/// Pure: chunk bodies in, a description out; `ColorProfile` turns a
/// `Space` into the profile LittleCMS converts with.
struct PNGColorChunks: Equatable {
  /// cICP's colour primaries, transfer function, matrix and full-range
  /// flag (ITU-T H.273 code points), if the PNG has one.
  var cicp: [UInt8]?
  /// Whether the PNG has an sRGB chunk.
  var srgb = false
  /// gAMA's value: the encoding exponent times 100 000 (45 455 is 1/2.2).
  var gamma: UInt32?
  /// cHRM's white point and red, green and blue primaries, x and y each,
  /// times 100 000.
  var chromaticities: [UInt32]?

  /// A colour space of primaries, a white point and a transfer function,
  /// as a matrix-shaper ICC profile describes one.
  struct Space: Equatable {
    /// CIE xy of the white point, then of red, green and blue.
    var white: [Double], red: [Double], green: [Double], blue: [Double]
    var transfer: Transfer
  }

  /// How an encoded value (0…1) maps to light (0…1).
  enum Transfer: Equatable {
    /// light = encoded^exponent.
    case power(Double)
    /// ICC's parametric curve of type 4 (LittleCMS's parameters g, a, b, c,
    /// d): light = (a·encoded + b)^g from d on, c·encoded below it.
    case parametric([Double])
  }

  /// What decides the PNG's colours.
  enum Meaning: Equatable {
    /// Its ICC profile.
    case profile
    /// sRGB: the pixels as they are.
    case sRGB
    /// A space the chunks describe.
    case space(Space)
    /// An HDR transfer function, named (`PQ`, `HLG`), with
    /// no ICC profile: colours transvid does not tone-map.
    case hdr(String)
  }

  /// The names of cICP's HDR transfer functions (H.273 code points).
  static let hdrTransfers: [UInt8: String] = [16: "PQ", 18: "HLG"]

  /// Reads `type`'s `body` into these chunks, if it is one of them and the
  /// first of its type (as libpng keeps the first); a body of the wrong
  /// length is none.
  mutating func read(type: [UInt8], body: ArraySlice<UInt8>) {
    func be32(_ i: Int) -> UInt32 {
      UInt32(body[i]) << 24 | UInt32(body[i + 1]) << 16 | UInt32(body[i + 2]) << 8 | UInt32(body[i + 3])
    }
    let start = body.startIndex
    switch type {
    case Array("cICP".utf8) where cicp == nil && body.count == 4: cicp = Array(body)
    case Array("sRGB".utf8) where body.count == 1: srgb = true
    case Array("gAMA".utf8) where gamma == nil && body.count == 4: gamma = be32(start)
    case Array("cHRM".utf8) where chromaticities == nil && body.count == 32:
      chromaticities = (0..<8).map { be32(start + 4 * $0) }
    default: break
    }
  }

  /// What decides the colours of a PNG with these chunks; `hasProfile`:
  /// whether it has an ICC profile that reads as one.
  func meaning(hasProfile: Bool) -> Meaning {
    if let cicp, cicp[2] == 0, cicp[3] == 1, let space = Self.space(primaries: cicp[0], transfer: cicp[1]) {
      return .space(space)
    }
    if hasProfile { return .profile }
    if let cicp, cicp[2] == 0, cicp[3] == 1, let name = Self.hdrTransfers[cicp[1]] { return .hdr(name) }
    if srgb { return .sRGB }
    guard let gamma, gamma > 0 else { return .sRGB }
    let exponent = Double(gamma) / 100_000
    let transfer = Transfer.power(1 / exponent)
    guard let chromaticities else {
      // Neutral: within libpng's threshold of 1/2.2.
      return abs(exponent * 2.2 - 1) < 0.05 ? .sRGB : .space(Space(sRGBPrimariesWith: transfer))
    }
    let xy = chromaticities.map { Double($0) / 100_000 }
    // Chromaticities that span no space (Skia finds no matrix): sRGB, as
    // Chromium draws them. A y of 0 would divide by zero.
    guard xy.allSatisfy({ $0 <= 1 }), stride(from: 1, to: 8, by: 2).allSatisfy({ xy[$0] > 0 }) else { return .sRGB }
    return .space(
      Space(white: [xy[0], xy[1]], red: [xy[2], xy[3]], green: [xy[4], xy[5]], blue: [xy[6], xy[7]], transfer: transfer))
  }

  /// The space of cICP `primaries` and `transfer` (H.273), nil for code
  /// points not read here.
  static func space(primaries: UInt8, transfer: UInt8) -> Space? {
    let d65 = [0.3127, 0.3290], illuminantC = [0.310, 0.316]
    let primaries: [[Double]]? =
      switch primaries {
      case 1: [d65, [0.640, 0.330], [0.300, 0.600], [0.150, 0.060]]  // BT.709, sRGB
      case 4: [illuminantC, [0.67, 0.33], [0.21, 0.71], [0.14, 0.08]]  // BT.470 System M
      case 5: [d65, [0.64, 0.33], [0.29, 0.60], [0.15, 0.06]]  // BT.470 System B, G; BT.601 625
      case 6, 7: [d65, [0.630, 0.340], [0.310, 0.595], [0.155, 0.070]]  // BT.601 525, SMPTE 240
      case 8: [illuminantC, [0.681, 0.319], [0.243, 0.692], [0.145, 0.049]]  // generic film
      case 9: [d65, [0.708, 0.292], [0.170, 0.797], [0.131, 0.046]]  // BT.2020, BT.2100
      case 11: [[0.314, 0.351], [0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]  // SMPTE RP 431-2 (DCI-P3)
      case 12: [d65, [0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]  // SMPTE EG 432-1 (Display P3)
      case 22: [d65, [0.630, 0.340], [0.295, 0.605], [0.155, 0.077]]  // EBU Tech. 3213-E
      default: nil
      }
    let curve: Transfer? =
      switch transfer {
      // BT.709's (BT.601's, BT.2020's, IEC 61966-2-4's): shown as BT.1886
      // displays them, light = encoded^2.4, as Chromium shows them.
      case 1, 6, 11, 14, 15: .power(2.4)
      case 4: .power(2.2)
      case 5: .power(2.8)
      // SMPTE 240M.
      case 7: .parametric([1 / 0.45, 1 / 1.111572195921731, 0.111572195921731 / 1.111572195921731, 1 / 4.0, 0.091286342118])
      case 8: .power(1)
      case 13: .parametric(sRGBCurve)
      // SMPTE ST 428-1: light = (52.37 / 48)·encoded^2.6, past 1 at the top
      // (clipped there), as Chromium (skcms) draws it.
      case 17: .parametric([2.6, pow(52.37 / 48, 1 / 2.6), 0, 0, 0])
      default: nil
      }
    guard let primaries, let curve else { return nil }
    return Space(white: primaries[0], red: primaries[1], green: primaries[2], blue: primaries[3], transfer: curve)
  }

  /// sRGB's curve as ICC's parametric type 4.
  static let sRGBCurve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
}

extension PNGColorChunks.Space {
  /// sRGB's primaries and white (BT.709, D65) with `transfer`.
  init(sRGBPrimariesWith transfer: PNGColorChunks.Transfer) {
    self.init(white: [0.3127, 0.3290], red: [0.640, 0.330], green: [0.300, 0.600], blue: [0.150, 0.060], transfer: transfer)
  }
}
