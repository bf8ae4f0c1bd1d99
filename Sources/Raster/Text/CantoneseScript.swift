/// The language tag text is shaped in and takes its fonts by: the tag,
/// with Simplified written out for Cantonese in mainland China (`yue-CN`
/// is `yue-Hans-CN`, CLDR's likely subtags), where Cantonese without a
/// script is Traditional, Hong Kong's. Both the CJK face (looked up by the
/// tag, then without its last subtag) and HarfBuzz's `locl` (OpenType's
/// ZHH for `yue` and `yue-CN` alike, ZHS for `yue-Hans`) read the script
/// subtag, so without it `yue-CN` would draw Hong Kong's forms.
enum CantoneseScript {
  static func tag(_ language: String) -> String {
    let parts = language.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0].lowercased() == "yue", parts[1].uppercased() == "CN" else { return language }
    return ([parts[0], "Hans"] + parts.dropFirst()).joined(separator: "-")
  }
}
