// Chinese's parents and fallbacks, as an iPhone chains them to pick an
// app's localization (`ualoc_localizationsToUse` in Apple's ICU): the
// tables a Traditional, Simplified or Cantonese locale reads after its own.

extension Localization {
  /// The Chinese tables Apple's parents add after a Traditional Chinese or
  /// a Cantonese locale's own (`ualoc_getParent` in Apple's ICU): Traditional
  /// Chinese then reads Taiwan's (`zh-HK` → `zh-Hant` → `zh-TW`), Cantonese
  /// Hong Kong's Chinese and so Taiwan's (`yue` → `yue-Hant` → `yue-HK` →
  /// `zh-Hant-HK` → `zh-HK` → `zh-Hant` → `zh-TW`), and Cantonese in its
  /// Simplified script mainland China's (`yue-Hans`, `yue-CN` → `zh-Hans`),
  /// as an iPhone set to Cantonese shows an app's Hong Kong Chinese. A
  /// table that writes its script (`zh-Hant-TW`) is the one without it.
  static func chineseParents(language: String, script: String) -> [String] {
    switch (language, script) {
    case ("zh", "Hant"): ["zh-Hant-TW", "zh-TW"]
    case ("yue", "Hans"): ["zh-Hans"]
    case ("yue", _): ["yue-HK", "zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"]
    default: []
    }
  }

  /// The tables a Chinese locale in `script` falls back to when it has
  /// none of its own chain: the ones whose parent is its script's table
  /// (Apple's `locParentMap`: `zh-Hant-HK` → `zh-Hant`, `zh-Hans-CN` →
  /// `zh-Hans`), as iOS's backup match picks them. An app localized in
  /// `zh` (Simplified, as Apple reads it) and `zh-HK` shows Hong Kong's
  /// strings on an iPhone set to `zh-TW` or `zh-Hant`, and one localized
  /// in `zh-CN` alone shows them on one set to `zh-SG` or `zh-Hans`.
  static func chineseBackups(script: String) -> [String] {
    switch script {
    case "Hant": ["zh-Hant-HK", "zh-HK"]
    case "Hans": ["zh-Hans-CN", "zh-CN"]
    default: []
    }
  }
}
