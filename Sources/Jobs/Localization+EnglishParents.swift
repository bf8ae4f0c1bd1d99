// English's regional parents, as an iPhone chains them to pick an app's
// localization.

extension Localization {
  /// The tables a regional English locale reads after its own, before
  /// `en`: its parent, the parent's parent, … as Apple's ICU chains them
  /// (`ualoc_getParent`: its `appleParentMap` first, then CLDR's
  /// parentLocales). Oceania reads Australia's English (`en-NZ` → `en-AU`
  /// → `en-GB` → `en-001`), most of the Commonwealth Britain's (`en-IN` →
  /// `en-GB` → `en-001`), continental Europe `en-150` first (`en-DE` →
  /// `en-150` → `en-GB` → `en-001`); CLDR's other `en-001` regions
  /// (`en-IL`, `en-CM`) read `en-001` alone, and the rest (`en-US`,
  /// `en-CA`, `en-PH`, `en-JP`) none but `en`.
  static func englishParents(region: String) -> [String] {
    var chain: [String] = []
    var current = region
    while let parent = englishParent[current], chain.count < 8 {
      chain.append("en-\(parent)")
      current = parent
    }
    return chain
  }

  /// Each region's parent: Apple's (`appleParentMap` in Apple's ICU,
  /// ualoc.cpp) where it names one, else CLDR 42's (ICU 72's `%%Parent`).
  static let englishParent: [String: String] = {
    var parents: [String: String] = ["150": "GB", "GB": "001", "CY": "150"]
    for region in ["AT", "BE", "CH", "DE", "DK", "FI", "NL", "SE", "SI"] { parents[region] = "150" }
    for region in ["CM", "ER", "FM", "IL", "LR", "MG", "PW", "RW", "SX", "TK"] { parents[region] = "001" }
    for region in ["CC", "CK", "CX", "NF", "NR", "NU", "NZ", "PG", "WS"] { parents[region] = "AU" }
    let british = [
      "AG", "AI", "AU", "BB", "BD", "BM", "BN", "BS", "BW", "BZ", "DG", "DM", "FJ", "FK", "GD", "GG", "GH", "GI", "GM", "GY",
      "HK", "IE", "IM", "IN", "IO", "JE", "JM", "KE", "KI", "KN", "KY", "LC", "LK", "LS", "MO", "MS", "MT", "MU", "MV", "MW",
      "MY", "NA", "NG", "PK", "PN", "SB", "SC", "SD", "SG", "SH", "SL", "SS", "SZ", "TC", "TO", "TT", "TV", "TZ", "UG", "VC",
      "VG", "VU", "ZA", "ZM", "ZW",
    ]
    for region in british { parents[region] = "GB" }
    return parents
  }()
}
