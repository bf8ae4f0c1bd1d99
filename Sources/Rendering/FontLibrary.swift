// FontLibrary: the fonts labels draw with, read from where Debian's packages
// put them (scripts/bootstrap installs both):
//
//   fonts-dejavu-core  /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, DejaVuSans-Bold.ttf
//   fonts-noto-cjk     /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc, NotoSansCJK-Bold.ttc
//   fonts-noto-core    /usr/share/fonts/truetype/noto/NotoSans{Arabic,Hebrew,Devanagari,Thai,…}-{Regular,Bold}.ttf
//   fonts-noto-color-emoji /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf (emoji, colour bitmaps)
//   fonts-symbola      /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf (symbols)
//
// DejaVu Sans stands in for San Francisco (a neutral sans with wide Latin,
// Greek and Cyrillic coverage and kerning); characters it lacks fall back to
// Noto Sans CJK SC (face 2 of the collections), as iOS falls back to PingFang
// SC. Arabic, Hebrew, Devanagari and Thai take Noto Sans for their script
// first (DejaVu's Arabic has no proper joining forms for every letter and
// it has no Indic or Thai at all), as iOS takes SF Arabic, Kohinoor, Thonburi;
// Noto Color Emoji draws emoji in their colours (as Apple Color Emoji),
// Symbola the symbols it lacks (and emoji, as outlines, without it). What
// DejaVu lacks takes the CJK face of the text's language first (`cjkFaces`), and
// Urdu's Arabic letters Noto Nastaliq Urdu, as iOS draws Urdu in Nastaliq
// (`urduRegular`; Arabic, Persian and the rest keep Noto Sans Arabic). Raster
// never opens files: this is where the bytes come from.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Jobs
import Raster

/// The system fonts for labels, loaded once per process.
public enum FontLibrary {
  /// One face of a font file, and the package that installs it.
  public struct FontFile: Hashable, Sendable {
    public var path: String
    public var faceIndex: Int
    public var package: String

    public init(path: String, faceIndex: Int = 0, package: String) {
      self.path = path
      self.faceIndex = faceIndex
      self.package = package
    }

    /// The `package` of a job's own `font: { file: … }`.
    public static let jobsOwn = "the job's font"
    /// How the `package` of a job's `font: { family: … }` begins.
    public static let familyPackage = "a package with the font family"
  }

  public static let latinRegular = FontFile(
    path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", faceIndex: 0, package: "fonts-dejavu-core")
  public static let latinBold = FontFile(
    path: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", faceIndex: 0, package: "fonts-dejavu-core")
  /// Noto Sans CJK SC: face 2 of the collection (JP, KR, SC, TC, HK, then the Mono faces).
  public static let cjkRegular = FontFile(
    path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", faceIndex: 2, package: "fonts-noto-cjk")
  public static let cjkBold = FontFile(
    path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", faceIndex: 2, package: "fonts-noto-cjk")

  /// The fonts preferred per script (ISO 15924), regular and bold (the
  /// regular again where fonts-noto-core has no bold: Syriac, Yi). Tibetan
  /// is Noto Serif Tibetan, the only Noto face of it.
  ///
  /// Where Noto has a UI variant (fonts-noto-ui-core), it is the one: the
  /// same design fitted to Noto Sans UI's line height (1.36 em), as iOS's
  /// system fonts for these scripts keep the Latin line's height. The
  /// document variants are taller: Arabic's lines 2.11 em, Myanmar's 2.18,
  /// so a wrapped Arabic label showed about half the lines an iPhone shows.
  public static let scriptFonts: [(script: String, regular: FontFile, bold: FontFile)] = [
    ("Arab", "Sans", "Arabic", true, true), ("Hebr", "Sans", "Hebrew", true, false),
    ("Deva", "Sans", "Devanagari", true, true), ("Thai", "Sans", "Thai", true, true),
    ("Beng", "Sans", "Bengali", true, true), ("Taml", "Sans", "Tamil", true, true), ("Laoo", "Sans", "Lao", true, true),
    ("Mymr", "Sans", "Myanmar", true, true), ("Khmr", "Sans", "Khmer", true, true),
    ("Gujr", "Sans", "Gujarati", true, true), ("Guru", "Sans", "Gurmukhi", true, true),
    ("Knda", "Sans", "Kannada", true, true), ("Mlym", "Sans", "Malayalam", true, true),
    ("Telu", "Sans", "Telugu", true, true), ("Sinh", "Sans", "Sinhala", true, true),
    ("Armn", "Sans", "Armenian", true, false), ("Geor", "Sans", "Georgian", true, false),
    ("Ethi", "Sans", "Ethiopic", true, false), ("Orya", "Sans", "Oriya", true, true),
    ("Thaa", "Sans", "Thaana", true, false), ("Cher", "Sans", "Cherokee", true, false),
    ("Tibt", "Serif", "Tibetan", true, false), ("Syrc", "Sans", "Syriac", false, false), ("Yiii", "Sans", "Yi", false, false),
    // The other scripts fonts-noto-core draws (Noto Serif where it has no
    // Sans face), so no script it covers is drawn as empty boxes.
    ("Adlm", "Sans", "Adlam", true, false), ("Aghb", "Sans", "CaucasianAlbanian", false, false),
    ("Ahom", "Serif", "Ahom", false, false), ("Armi", "Sans", "ImperialAramaic", false, false),
    ("Avst", "Sans", "Avestan", false, false), ("Bali", "Sans", "Balinese", true, false),
    ("Bamu", "Sans", "Bamum", true, false), ("Bass", "Sans", "BassaVah", false, false),
    ("Batk", "Sans", "Batak", false, false), ("Bhks", "Sans", "Bhaiksuki", false, false),
    ("Brah", "Sans", "Brahmi", false, false), ("Bugi", "Sans", "Buginese", false, false),
    ("Buhd", "Sans", "Buhid", false, false), ("Cakm", "Sans", "Chakma", false, false),
    ("Cans", "Sans", "CanadianAboriginal", true, false), ("Cari", "Sans", "Carian", false, false),
    ("Cham", "Sans", "Cham", true, false), ("Copt", "Sans", "Coptic", false, false),
    ("Cprt", "Sans", "Cypriot", false, false), ("Dogr", "Serif", "Dogra", false, false),
    ("Dsrt", "Sans", "Deseret", false, false), ("Dupl", "Sans", "Duployan", false, false),
    ("Egyp", "Sans", "EgyptianHieroglyphs", false, false), ("Elba", "Sans", "Elbasan", false, false),
    ("Elym", "Sans", "Elymaic", false, false), ("Glag", "Sans", "Glagolitic", false, false),
    ("Gong", "Sans", "GunjalaGondi", false, false), ("Gonm", "Sans", "MasaramGondi", false, false),
    ("Goth", "Sans", "Gothic", false, false), ("Gran", "Sans", "Grantha", false, false),
    ("Hano", "Sans", "Hanunoo", false, false), ("Hatr", "Sans", "Hatran", false, false),
    ("Hluw", "Sans", "AnatolianHieroglyphs", false, false), ("Hmng", "Sans", "PahawhHmong", false, false),
    ("Hmnp", "Serif", "NyiakengPuachueHmong", true, false), ("Hung", "Sans", "OldHungarian", false, false),
    ("Ital", "Sans", "OldItalic", false, false), ("Java", "Sans", "Javanese", true, false),
    ("Kali", "Sans", "KayahLi", true, false), ("Khar", "Sans", "Kharoshthi", false, false),
    ("Khoj", "Sans", "Khojki", false, false), ("Kthi", "Sans", "Kaithi", false, false),
    ("Lana", "Sans", "TaiTham", true, false), ("Lepc", "Sans", "Lepcha", false, false),
    ("Limb", "Sans", "Limbu", false, false), ("Lina", "Sans", "LinearA", false, false),
    ("Linb", "Sans", "LinearB", false, false), ("Lisu", "Sans", "Lisu", true, false),
    ("Lyci", "Sans", "Lycian", false, false), ("Lydi", "Sans", "Lydian", false, false),
    ("Mahj", "Sans", "Mahajani", false, false), ("Mand", "Sans", "Mandaic", false, false),
    ("Mani", "Sans", "Manichaean", false, false), ("Marc", "Sans", "Marchen", false, false),
    ("Medf", "Sans", "Medefaidrin", true, false), ("Mend", "Sans", "MendeKikakui", false, false),
    ("Modi", "Sans", "Modi", false, false), ("Mong", "Sans", "Mongolian", false, false),
    ("Mroo", "Sans", "Mro", false, false), ("Mtei", "Sans", "MeeteiMayek", true, false),
    ("Mult", "Sans", "Multani", false, false), ("Narb", "Sans", "OldNorthArabian", false, false),
    ("Nbat", "Sans", "Nabataean", false, false), ("Newa", "Sans", "Newa", false, false),
    ("Nkoo", "Sans", "NKo", false, false), ("Nshu", "Sans", "Nushu", false, false),
    ("Ogam", "Sans", "Ogham", false, false), ("Olck", "Sans", "OlChiki", true, false),
    ("Orkh", "Sans", "OldTurkic", false, false), ("Osge", "Sans", "Osage", false, false),
    ("Osma", "Sans", "Osmanya", false, false), ("Palm", "Sans", "Palmyrene", false, false),
    ("Pauc", "Sans", "PauCinHau", false, false), ("Perm", "Sans", "OldPermic", false, false),
    ("Phag", "Sans", "PhagsPa", false, false), ("Phli", "Sans", "InscriptionalPahlavi", false, false),
    ("Phlp", "Sans", "PsalterPahlavi", false, false), ("Phnx", "Sans", "Phoenician", false, false),
    ("Plrd", "Sans", "Miao", false, false), ("Prti", "Sans", "InscriptionalParthian", false, false),
    ("Rjng", "Sans", "Rejang", false, false), ("Rohg", "Sans", "HanifiRohingya", true, false),
    ("Runr", "Sans", "Runic", false, false), ("Samr", "Sans", "Samaritan", false, false),
    ("Sarb", "Sans", "OldSouthArabian", false, false), ("Saur", "Sans", "Saurashtra", false, false),
    ("Sgnw", "Sans", "SignWriting", false, false), ("Shaw", "Sans", "Shavian", false, false),
    ("Shrd", "Sans", "Sharada", false, false), ("Sidd", "Sans", "Siddham", false, false),
    ("Sind", "Sans", "Khudawadi", false, false), ("Sogd", "Sans", "Sogdian", false, false),
    ("Sogo", "Sans", "OldSogdian", false, false), ("Sora", "Sans", "SoraSompeng", true, false),
    ("Soyo", "Sans", "Soyombo", false, false), ("Sund", "Sans", "Sundanese", true, false),
    ("Sylo", "Sans", "SylotiNagri", false, false), ("Tagb", "Sans", "Tagbanwa", false, false),
    ("Takr", "Sans", "Takri", false, false), ("Tale", "Sans", "TaiLe", false, false),
    ("Talu", "Sans", "NewTaiLue", false, false), ("Tang", "Serif", "Tangut", false, false),
    ("Tavt", "Sans", "TaiViet", false, false), ("Tfng", "Sans", "Tifinagh", false, false),
    ("Tglg", "Sans", "Tagalog", false, false), ("Tirh", "Sans", "Tirhuta", false, false),
    ("Ugar", "Sans", "Ugaritic", false, false), ("Vaii", "Sans", "Vai", false, false),
    ("Wara", "Sans", "WarangCiti", false, false), ("Wcho", "Sans", "Wancho", false, false),
    ("Xpeo", "Sans", "OldPersian", false, false), ("Xsux", "Sans", "Cuneiform", false, false),
    ("Yezi", "Serif", "Yezidi", true, false), ("Zanb", "Sans", "ZanabazarSquare", false, false),
  ]
  .map { (code: String, style: String, name: String, hasBold: Bool, hasUI: Bool) in
    let base = "/usr/share/fonts/truetype/noto/Noto\(style)\(name)\(hasUI ? "UI" : "")"
    let package = hasUI ? "fonts-noto-ui-core" : "fonts-noto-core"
    let regular = FontFile(path: base + "-Regular.ttf", faceIndex: 0, package: package)
    return (code, regular, hasBold ? FontFile(path: base + "-Bold.ttf", faceIndex: 0, package: package) : regular)
  }
  /// Emoji in colour (CBDT bitmaps).
  public static let colorEmoji = FontFile(
    path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", faceIndex: 0, package: "fonts-noto-color-emoji")
  /// Symbols nothing else has, and emoji without the colour font.
  public static let symbols = FontFile(
    path: "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf", faceIndex: 0, package: "fonts-symbola")

  /// A font that could not be loaded: which file, why, and what installs it.
  public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: FontFile
    public var reason: String
    /// FreeType ran out of memory opening it: installing the font would not help.
    public var isOutOfMemory = false
    public var description: String {
      // A job's own font is the job's to supply, a family the machine's to
      // install; transvid's own fonts come with bootstrap.
      let hint =
        if file.package == FontFile.jobsOwn || isOutOfMemory {
          ""
        } else if file.package.hasPrefix(FontFile.familyPackage) {
          " (install \(file.package))"
        } else {
          " (install \(file.package): scripts/bootstrap)"
        }
      return "cannot load font '\(file.path)': \(reason)" + hint
    }
  }

  /// Opens one face.
  public static func font(_ file: FontFile) throws(LoadError) -> Font {
    var files: [String: FontData] = [:]
    return try font(file, files: &files)
  }

  /// Opens one face, reading its file once for every face of it `files`
  /// holds; `weight` sets a variable face's weight axis (`Font`).
  static func font(_ file: FontFile, weight: Double? = nil, files: inout [String: FontData]) throws(LoadError) -> Font {
    let data: FontData
    if let read = files[file.path] {
      data = read
    } else {
      switch mapped(file.path) {
      case .success(let d): data = d
      case .failure(let e): throw LoadError(file: file, reason: e.description)
      }
      files[file.path] = data
    }
    do {
      return try Font(data: data, faceIndex: file.faceIndex, weight: weight)
    } catch {
      throw LoadError(file: file, reason: error.description, isOutOfMemory: error.isOutOfMemory)
    }
  }

  /// Every file `load()` reads, each once: what a job's text pixels can
  /// depend on, so the output cache keys text jobs by these files' bytes.
  public static var files: [String] {
    let all = [latinRegular, latinBold, cjkRegular, cjkBold, colorEmoji, symbols, urduRegular, urduBold]
      + scriptFonts.flatMap { [$0.regular, $0.bold] }
    var seen = Set<String>()
    return all.map(\.path).filter { seen.insert($0).inserted }
  }

  /// Urdu's Nastaliq, for the Arabic script in Urdu text (`ur`, `ur-PK`, `ur-IN`).
  public static let urduRegular = FontFile(
    path: "/usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Regular.ttf", faceIndex: 0, package: "fonts-noto-core")
  public static let urduBold = FontFile(
    path: "/usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Bold.ttf", faceIndex: 0, package: "fonts-noto-core")

  /// The faces of Noto Sans CJK's collections per language, so Han
  /// characters take the language's own forms (骨 and 直 differ between
  /// China, Taiwan, Hong Kong, Japan and Korea) and Hangul its Korean
  /// design. The faces are, in order: JP, KR, SC, TC, HK. A language tag
  /// is looked up whole, then without its last subtag (`zh-Hant-TW`,
  /// `zh-Hant`, `zh`), so a region or script picks its face. Cantonese
  /// (`yue`) is Hong Kong's, and in its Simplified script (`yue-Hans`)
  /// the mainland's. The face stands in the language's cascade after
  /// DejaVu Sans, before the cascade's SC face: it draws what DejaVu
  /// lacks (kanji, kana, Hangul, 、。「」, fullwidth forms), and the digits,
  /// spaces, Latin punctuation and "…" among them stay DejaVu's, as SF
  /// draws them on an iPhone in any language.
  public static let cjkFaces: [(language: String, face: Int)] = [
    ("ja", 0), ("ko", 1), ("zh", 2), ("zh-Hans", 2), ("zh-CN", 2), ("zh-SG", 2),
    ("zh-Hant", 3), ("zh-TW", 3), ("zh-HK", 4), ("zh-MO", 4), ("zh-Hant-HK", 4), ("zh-Hant-MO", 4),
    ("yue", 4), ("yue-Hant", 4), ("yue-Hans", 2),
  ]

  /// Reads the cascade (DejaVu Sans then Noto Sans CJK SC, regular and
  /// bold), the script fonts, the cascades per CJK language and the fallback:
  /// colour emoji, then Symbola's outlines for symbols (and for emoji when
  /// the colour font is not installed).
  public static func load() throws(LoadError) -> FontSet {
    var files: [String: FontData] = [:]
    let regular = try font(latinRegular, files: &files), bold = try font(latinBold, files: &files)
    let cjk = try font(cjkRegular, files: &files), cjkHeavy = try font(cjkBold, files: &files)
    var scripts: [String: FontSet] = [:]
    for entry in scriptFonts {
      scripts[entry.script] = FontSet(
        regular: [try font(entry.regular, files: &files)], bold: [try font(entry.bold, files: &files)])
    }
    // The colour emoji are optional: without them Symbola draws emoji in outline.
    let emoji = (try? font(colorEmoji, files: &files)).map { [$0] } ?? []
    var set = FontSet(
      regular: [regular, cjk], bold: [bold, cjkHeavy], scripts: scripts,
      fallback: emoji + [try font(symbols, files: &files)])
    // One face object per collection face, shared by the tags that name it.
    var faces: [Int: FontSet] = [cjkRegular.faceIndex: FontSet(regular: [cjk], bold: [cjkHeavy])]
    for (language, face) in cjkFaces {
      if faces[face] == nil {
        faces[face] = FontSet(
          regular: [try font(FontFile(path: cjkRegular.path, faceIndex: face, package: cjkRegular.package), files: &files)],
          bold: [try font(FontFile(path: cjkBold.path, faceIndex: face, package: cjkBold.package), files: &files)])
      }
      let own = faces[face]!, isTheCascadesOwn = face == cjkRegular.faceIndex
      set.cascades[language] =
        isTheCascadesOwn ? FontSet(regular: [regular, cjk], bold: [bold, cjkHeavy])
        : FontSet(regular: [regular] + own.regular + [cjk], bold: [bold] + own.bold + [cjkHeavy])
    }
    set.languages["ur"] = ["Arab": FontSet(regular: [try font(urduRegular, files: &files)], bold: [try font(urduBold, files: &files)])]
    return set
  }

  /// `load()`, done once for the whole process on first use.
  public static let system: Result<FontSet, LoadError> = Result { () throws(LoadError) in try load() }

  /// The file at `path` mapped into memory (private, copy on write): a
  /// face reads only the tables and glyphs it draws, so only those pages are
  /// ever read (the CJK collections and the emoji are 50 MB a process would
  /// otherwise copy); or strerror's text for why not.
  ///
  /// Only a regular file is read (`RegularFile`): a job's `font: { file: … }`
  /// may name a FIFO or `/dev/zero`.
  static func mapped(_ path: String) -> Result<FontData, ReadError> {
    let fd: Int32, size: Int
    switch RegularFile.open(path) {
    case .success(let file): (fd, size) = (file.fd, file.size)
    case .failure(let failure): return .failure(failure)
    }
    defer { close(fd) }
    // Empty (mmap takes no empty mapping): read it.
    guard size > 0 else { return contents(of: fd, size: size).map(FontData.init) }
    let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
    guard let address, address != MAP_FAILED else { return .failure(ReadError(code: errno)) }
    return .success(
      FontData(taking: UnsafeMutableRawBufferPointer(start: address, count: size)) { munmap($0.baseAddress, $0.count) })
  }

  /// Everything left to read from `fd` (`size` bytes expected), or
  /// strerror's text for why not.
  static func contents(of fd: Int32, size: Int) -> Result<[UInt8], ReadError> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: Swift.max(65536, size + 1))
    bytes.reserveCapacity(size)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(ReadError(code: errno))
      }
      if n == 0 { break }
      bytes += chunk.prefix(n)
    }
    return .success(bytes)
  }

  typealias ReadError = RegularFile.Failure
}
