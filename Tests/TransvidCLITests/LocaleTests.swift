// Locales: a job with `locales:` and `strings:` renders one job per locale
// (`<name>.<locale>.<ext>`), its text from the String Catalog or inline
// tables, its screenshots from `{locale}` paths; the errors the issue names
// are at file:line:col.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Jobs
import Rendering
import Raster
import Testing
import TransvidCLI

@Suite struct LocaleTests {
  static let catalog = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "greet" : {
          "localizations" : {
            "ar" : { "stringUnit" : { "state" : "translated", "value" : "مرحبا" } },
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello" } },
            "ja" : { "stringUnit" : { "state" : "new", "value" : "" } }
          }
        },
        "items" : {
          "localizations" : {
            "ja" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "1件" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld件 100%%" } } } } }
          }
        },
        "Done" : { }
      },
      "version" : "1.0"
    }
    """

  static func job(locales: String = "[en, ar, ja]", strings: String = "App.xcstrings", image: String? = nil, key: String = "greet") -> String {
    """
    canvas: { size: 120x60, scale: 1, fps: 10, background: "#FFFFFF" }
    output: { formats: [png] }
    locales: \(locales)
    strings: \(strings)
    screens:
      home:
    \(image.map { "    image: \($0)\n" } ?? "")    views:
          - { frame: [0, 0, 120, 30], text: { key: \(key) }, font: 20 }
          - { frame: [0, 30, 120, 30], text: { key: items }, font: 20 }
    timeline: [hold: 0.1]
    """
  }

  static func folder() throws -> String {
    let dir = try makeTemporaryDirectory()
    try write(catalog, to: "App.xcstrings", in: dir)
    return dir
  }

  /// A key with no string in any language, the source's included ('Done':
  /// an entry Xcode extracted and nobody wrote), is drawn as the key itself,
  /// as iOS draws it, and the note says so (it said the source language's
  /// string was used).
  @Test func aKeyWithoutAnyStringIsDrawnAsItself() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try write(Self.job(locales: "[ar]", key: "Done"), to: "app.cfg", in: dir)
    let job = try #require(try JobParser.load(path: path).localizedJobs().first)
    #expect(job.screens[0].views[0].text == "Done")
    #expect(job.notes.first?.description == "\(path):8:48: note: screens.home.views[0].text.key: key 'Done' has no 'ar' string in "
      + "'App.xcstrings'; the source language 'en' has none either, so the key itself is drawn, as iOS draws it")
  }

  /// A job with strings and no `locales:` is drawn in its source language
  /// with the notes a locale's job gets: a format string without `args`
  /// drawn as written, a key the source language lacks drawn as itself.
  /// The job's other notes replaced them (the locales sweep).
  @Test func aJobWithoutLocalesKeepsItsStringsNotes() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = """
      canvas: { size: 120x60, scale: 1, fps: 10, background: "#FFFFFF" }
      strings: { en: { a: "Photos: %lld" }, ar: { b: "صور" } }
      screens:
        home:
          views:
            - { frame: [0, 0, 120, 30], text: { key: a } }
            - { frame: [0, 30, 120, 30], text: { key: b } }
      timeline: [hold: 0.1]
      """
    let path = try write(job, to: "j.cfg", in: dir)
    let spec = try JobParser.load(path: path)
    #expect(spec.screens[0].views.map(\.text) == ["Photos: %lld", "b"])
    #expect(spec.notes.map(\.description) == [
      "\(path):6:48: note: screens.home.views[0].text.key: the 'en' string of 'a' has the format specifier '%lld', "
        + "drawn as written: an app fills it in at run time (give the values with text: { key: a, args: [...] })",
      "\(path):7:49: note: screens.home.views[1].text.key: key 'b' has no 'en' string in the inline strings; "
        + "the source language 'en' has none either, so the key itself is drawn, as iOS draws it",
    ])
  }

  /// README's example, jobs/locales.cfg, has each of its strings in each
  /// of its languages: English drew the key 'bluetooth' lower-case between
  /// "Wi-Fi" and "Photos", in the README's contact sheets too (the locales sweep).
  @Test func theLocalesExampleHasEveryStringInEveryLanguage() throws {
    let job = PlanFramesTests.repository.appendingPathComponent("jobs/locales.cfg").path
    let jobs = try JobParser.load(path: job).localizedJobs()
    #expect(jobs.map(\.locale) == ["en", "ar", "ja", "de"])
    for job in jobs {
      let keyNotes = job.notes.filter { $0.message.contains(".text.key:") }
      #expect(keyNotes.isEmpty, "\(job.name): \(keyNotes)")
    }
    #expect(jobs[0].screens[0].views[2].text == "Bluetooth")
  }

  @Test func catalogGivesEachLocaleItsStrings() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try write(Self.job(), to: "app.cfg", in: dir)
    let spec = try JobParser.load(path: path)
    let jobs = spec.localizedJobs()
    let names = jobs.map(\.name), texts = jobs.map { $0.screens[0].views.map { $0.text ?? "" } }
    let languages = jobs.map { $0.screens[0].views[0].textStyle.language }
    let namesRight = names == ["app.en", "app.ar", "app.ja"]
    #expect(namesRight, "\(names)")
    let textsRight = texts == [["Hello", "items"], ["مرحبا", "items"], ["Hello", "%lld件 100%"]]
    #expect(textsRight, "\(texts)")
    let languagesRight = languages == ["en", "ar", "ja"]
    #expect(languagesRight, "\(languages)")
    // Codes in any case are the canonical ones: AR is Arabic (its table, right to left, its name).
    let upper = try JobParser.load(path: try write(Self.job(locales: "[EN, AR]"), to: "upper.cfg", in: dir)).localizedJobs()
    #expect(upper.map(\.name) == ["upper.en", "upper.ar"] && upper[1].screens[0].views[0].text == "مرحبا")
    // 'greet' has no Japanese string (Xcode's untranslated entry, state new
    // and empty): the source language's, and a note naming key, locale,
    // file. 'items' is a format string a job cannot fill: drawn as written
    // (its %% a percent sign), and said.
    #expect(jobs[2].notes.map(\.description) == [
      "\(path):8:48: note: screens.home.views[0].text.key: key 'greet' has no 'ja' string in 'App.xcstrings'; "
        + "using the source language 'en'",
      "\(path):9:49: note: screens.home.views[1].text.key: the 'ja' string of 'items' has the format specifier '%lld', "
        + "drawn as written: an app fills it in at run time (give the values with text: { key: items, args: [...] })",
    ])
    #expect(Localization.formatSpecifier(in: "Hello, %@!") == "%@" && Localization.formatSpecifier(in: "%2$s and %1$.2f") == "%2$s")
    #expect(Localization.formatSpecifier(in: "100%% sure, 50% off") == nil)
    // Drawn as written, a string's %% is still a percent sign; its specifiers stay.
    #expect(Localization.asWritten("%lld at 50%% off, %%lld") == "%lld at 50% off, %lld")
    #expect(jobs[0].notes.isEmpty)
    // Each locale draws its own text: the Arabic label is right-aligned (natural), the English left.
    let en = try AssetLoader.makeRenderer(for: jobs[0]).snapshot(of: "home")!
    let ar = try AssetLoader.makeRenderer(for: jobs[1]).snapshot(of: "home")!
    func inkColumns(_ b: Bitmap) -> [Int] { (0..<b.width).filter { x in (0..<30).contains { b[x, $0].r < 128 } } }
    #expect(inkColumns(en).first! < 5 && inkColumns(en).last! < 80)
    #expect(inkColumns(ar).last! > 110 && inkColumns(ar).first! > 40)
  }

  /// `natural` alignment is the locale's leading edge (the locales sweep):
  /// in Arabic a Latin-only string ("iCloud Drive", "Wi-Fi" in Arabic iOS's
  /// Settings) is right-aligned, as NSTextAlignment.natural, "the default
  /// alignment associated with the current localization of the app", puts
  /// it; it was drawn at the left. In English an Arabic string stays right
  /// (its own direction), Latin left; an explicit `left` stays left.
  @Test func naturalAlignmentFollowsARightToLeftLocale() throws {
    let job = """
      canvas: { size: 200x90, scale: 1, fps: 10, background: "#FFFFFF" }
      locales: [en, ar]
      strings: { en: { t: "iCloud Drive", a: "مرحبا" }, ar: { t: "iCloud Drive", a: "مرحبا" } }
      screens:
        home:
          views:
            - { frame: [0, 0, 200, 30], text: { key: t }, font: 20 }
            - { frame: [0, 30, 200, 30], text: { key: a }, font: 20 }
            - { frame: [0, 60, 200, 30], text: { key: t }, font: 20, align: left, mirror: false }
      timeline: [hold: 0.1]
      """
    let jobs = try JobParser.parse(job, file: "j.cfg").localizedJobs()
    func inkColumns(_ b: Bitmap, _ row: Int) -> [Int] {
      (0..<b.width).filter { x in (row * 30..<row * 30 + 30).contains { b[x, $0].r < 128 } }
    }
    let en = try AssetLoader.makeRenderer(for: jobs[0]).snapshot(of: "home")!
    let ar = try AssetLoader.makeRenderer(for: jobs[1]).snapshot(of: "home")!
    #expect(inkColumns(en, 0).first! < 5 && inkColumns(en, 0).last! < 150, "\(inkColumns(en, 0))")
    #expect(inkColumns(en, 1).last! > 190)
    #expect(inkColumns(ar, 0).last! > 190 && inkColumns(ar, 0).first! > 50, "\(inkColumns(ar, 0))")
    #expect(inkColumns(ar, 1).last! > 190)
    #expect(inkColumns(ar, 2).first! < 5)
  }

  /// A key only another language's inline table has is drawn as itself
  /// in the locales without it, with a note (as a catalog's key without a
  /// source string is): it was drawn with none.
  @Test func aKeyOnlyAnotherTableHasIsNoted() throws {
    let spec = try JobParser.parse(
      Self.job(locales: "[en, ar]", strings: "{ en: { items: Items }, ar: { greet: \"مرحبا\", items: x } }"), file: "j.cfg")
    let jobs = spec.localizedJobs()
    let en = jobs[0].screens[0].views[0].text, ar = jobs[1].screens[0].views[0].text
    #expect(en == "greet" && ar == "مرحبا")
    let notes = jobs[0].notes.map(\.description)
    #expect(
      notes == [
        "j.cfg:8:48: note: screens.home.views[0].text.key: key 'greet' has no 'en' string in the inline strings; "
          + "the source language 'en' has none either, so the key itself is drawn, as iOS draws it"
      ], "\(notes)")
    #expect(jobs[1].notes.isEmpty)
  }

  /// A drawn status bar's clock takes the locale's digits, as the job's
  /// numbers do and iOS draws it (it stayed 9:41 beside ۹ in a label).
  @Test func theStatusBarsClockTakesTheLocalesDigits() throws {
    let spec = try JobParser.parse(
      Self.job(locales: "[en, fa, ar-EG, ne, de]", strings: "{ en: { greet: Hi, items: Items } }").replacingOccurrences(
        of: "fps: 10,", with: "fps: 10, statusBar: { time: \"9:41\" },"), file: "j.cfg")
    let times = spec.localizedJobs().map { $0.canvas.statusBar?.time ?? "none" }
    let expected = ["9:41", "۹:۴۱", "٩:٤١", "९:४१", "9:41"]
    let same = times == expected
    #expect(same, "\(times)")
  }

  @Test func inlineTablesAndAJobWithoutLocales() throws {
    let inline = "{ en: { greet: Hi, items: Items }, de: { greet: Hallo } }"
    let spec = try JobParser.parse(Self.job(locales: "[de]", strings: inline), file: "j.cfg")
    let de = spec.localizedJobs()
    #expect(de.map(\.name) == ["j.de"])
    #expect(de[0].screens[0].views.map(\.text) == ["Hallo", "Items"])
    // Strings without locales: the source language, the job's own name.
    let plain = try JobParser.parse(
      Self.job(locales: "[en]", strings: inline).replacingOccurrences(of: "locales: [en]\n", with: ""), file: "p.cfg")
    #expect(plain.name == "p")
    #expect(plain.screens[0].views.map(\.text) == ["Hi", "Items"])
    #expect(plain.localizedJobs().count == 1)
  }

  /// A regional locale reads the table iOS would match it to: by its
  /// script (Taiwan's and Hong Kong's Chinese the traditional table, the
  /// mainland's the simplified), by its CLDR parent (Mexico's Spanish
  /// Latin America's, Australia's English the British), else its language.
  @Test func aRegionalLocaleFindsTheTableIOSWouldMatch() throws {
    let inline = """
      { en: { greet: en, items: x }, zh-Hans: { greet: Hans }, zh-Hant: { greet: Hant }, zh-HK: { greet: HK },
        es: { greet: es }, es-419: { greet: "419" }, en-GB: { greet: GB }, ar: { greet: ar } }
      """
    let locales = ["zh-TW", "zh-Hant-TW", "zh-CN", "zh-Hans-SG", "zh-Hant-HK", "zh-MO", "es-MX", "es-ES", "en-AU", "en-US", "ar-SA"]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let greetings = spec.localizedJobs().map { $0.screens[0].views[0].text ?? "" }
    #expect(greetings == ["Hant", "Hant", "Hans", "Hans", "HK", "HK", "419", "es", "GB", "en", "ar"])
    #expect(!spec.notes.contains { $0.message.contains("'greet'") }, "\(spec.notes)")
    // Arabic script is right to left whatever Foundation says of the language.
    #expect(Localization.isRightToLeft("az-Arab") && Localization.isRightToLeft("ar") && !Localization.isRightToLeft("az"))
  }

  /// A locale with a variant reads its region's table before its
  /// language's, as ICU's parent of `de-CH-1996` is `de-CH` (the locales
  /// sweep): `de-CH-1996` drew the `de` table's "Straße" beside a `de-CH`
  /// "Strasse", and `sl-IT-rozaj` fell back to English past an `sl-IT`
  /// table, as the variant hid the region. A script written beside the
  /// variant is kept (`sr-Latn-RS-ekavsk` reads `sr-Latn-RS`, never `sr-RS`).
  @Test func aLocaleWithAVariantReadsItsRegionsTable() throws {
    let inline = """
      { en: { greet: Street, items: x }, de: { greet: "Straße" }, de-CH: { greet: "Strasse" }, sl-IT: { greet: "Ulica" },
        ca: { greet: "Carrer" }, sr-RS: { greet: "Улица" }, sr-Latn-RS: { greet: "Ulica RS" } }
      """
    let locales = ["de-CH-1996", "sl-IT-rozaj", "ca-ES-valencia", "ca-valencia", "sr-Latn-RS-ekavsk", "de-1996"]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let jobs = spec.localizedJobs()
    let greetings = jobs.map { $0.screens[0].views[0].text ?? "" }
    #expect(greetings == ["Strasse", "Ulica", "Carrer", "Carrer", "Ulica RS", "Straße"])
    #expect(jobs.allSatisfy { !$0.notes.contains { $0.message.contains("'greet'") } }, "\(jobs.map(\.notes))")
  }

  /// Cantonese reads Hong Kong's Chinese, and Traditional Chinese Taiwan's,
  /// as Apple's parents chain them (the locales sweep): `yue` and `yue-HK`
  /// drew the English source beside a `zh-HK` table, where an iPhone set to
  /// Cantonese shows an app's Hong Kong Chinese; `yue-Hans` and `yue-CN`
  /// drew English beside `zh-Hans`; `zh-Hant` drew English beside `zh-TW`.
  @Test func cantoneseAndTraditionalChineseReadApplesChineseParents() throws {
    let inline = """
      { en: { greet: Settings, items: x }, zh-Hans: { greet: "设置" }, zh-HK: { greet: "設定 HK" }, zh-TW: { greet: "設定 TW" } }
      """
    let locales = ["yue", "yue-HK", "yue-Hant", "yue-Hans", "yue-CN", "zh-Hant", "zh-Hant-TW", "zh-HK", "zh-Hans-HK"]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let jobs = spec.localizedJobs()
    let greetings = jobs.map { $0.screens[0].views[0].text ?? "" }
    #expect(greetings == ["設定 HK", "設定 HK", "設定 HK", "设置", "设置", "設定 TW", "設定 TW", "設定 HK", "设置"])
    #expect(jobs.allSatisfy { !$0.notes.contains { $0.message.contains("'greet'") } }, "\(jobs.map(\.notes))")
  }

  /// Spanish and Portuguese read `es-419` and `pt-PT` only in the regions
  /// CLDR gives them to (the locales sweep): `es-IC` (the Canary Islands,
  /// Spain), `es-EA`, `es-GQ` and `es-PH` drew the Latin American table
  /// beside an `es` one, and `pt-US` Portugal's beside `pt`'s, as every
  /// region but Spain's and Brazil's own took the regional parent.
  @Test func onlyCLDRsRegionsReadTheRegionalParent() throws {
    let inline = """
      { en: { greet: Settings, items: x }, es: { greet: "Ajustes ES" }, es-419: { greet: "Ajustes 419" },
        pt: { greet: "Ajustes BR" }, pt-PT: { greet: "Definições" } }
      """
    let locales = ["es-IC", "es-EA", "es-GQ", "es-PH", "es-US", "es-BR", "pt-US", "pt-MO", "pt-AO"]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let greetings = spec.localizedJobs().map { $0.screens[0].views[0].text ?? "" }
    #expect(
      greetings == [
        "Ajustes ES", "Ajustes ES", "Ajustes ES", "Ajustes ES", "Ajustes 419", "Ajustes 419", "Ajustes BR", "Definições",
        "Definições",
      ])
  }

  /// English reads its regional parents as Apple chains them (the stage
  /// sweep): `en-NZ` drew an `en-001` table beside an `en-AU` one, where
  /// Apple's parent of New Zealand's English is Australia's; `en-AU` read
  /// `en-001` before `en-GB`, its parent; `en-DE` skipped `en-150`; and
  /// `en-CA`, `en-PH` (parent `en`) and `en-IL` (parent `en-001` alone)
  /// drew British strings.
  @Test func englishReadsApplesRegionalParents() throws {
    let inline = """
      { en: { greet: en, items: x }, en-AU: { greet: AU }, en-GB: { greet: GB, items: GB },
        en-001: { greet: "001", items: "001" }, en-150: { greet: "150" } }
      """
    let locales = ["en-NZ", "en-FJ", "en-AU", "en-DE", "en-CY", "en-IN", "en-IL", "en-CA", "en-PH", "en-150"]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let texts = spec.localizedJobs().map { job in job.screens[0].views.map { $0.text ?? "" }.joined(separator: "/") }
    #expect(texts == ["AU/GB", "GB/GB", "AU/GB", "150/GB", "150/GB", "GB/GB", "001/001", "en/x", "en/x", "150/GB"])
  }

  /// A locale that writes its script reads no table in another script (the
  /// locales sweep): `sr-Latn` drew the `sr` table's Cyrillic, `pa-Arab`
  /// Gurmukhi, `az-Cyrl` Latin `az`, `zh-Hant` a Simplified `zh`. A table
  /// without a script is in its likely one (CLDR's): `sr-ME` is Latin, so
  /// `sr-Latn-ME` reads it; `pa-Guru` reads `pa`; `zh-Hans-MO` reads `zh`,
  /// not Macau's parent `zh-HK` (Traditional); `zh-Hant` reads `zh-HK`, as
  /// iOS falls back to it. Without a table in its script a key takes the
  /// source language's string, with the note.
  @Test func aLocaleWithAScriptReadsNoTableInAnother() throws {
    let inline = """
      { en: { greet: Settings, items: x }, sr: { greet: "Подешавања" }, sr-ME: { greet: "Podešavanja" },
        pa: { greet: "ਸੈਟਿੰਗਾਂ" }, az: { greet: "Ayarlar" }, zh: { greet: "设置" }, zh-HK: { greet: "設定" } }
      """
    let locales = [
      "sr-Latn", "pa-Arab", "az-Cyrl", "zh-Hant", "sr-Latn-ME", "sr-Cyrl", "pa-Guru", "zh-Hans", "sr", "zh-Hans-MO", "zh-MO",
    ]
    let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
    let jobs = spec.localizedJobs()
    let greetings = jobs.map { $0.screens[0].views[0].text ?? "" }
    #expect(
      greetings == [
        "Settings", "Settings", "Settings", "設定", "Podešavanja", "Подешавања", "ਸੈਟਿੰਗਾਂ", "设置", "Подешавања", "设置", "設定",
      ])
    #expect(
      jobs[0].notes.first?.description
        == "j.cfg:9:48: note: screens.home.views[0].text.key: key 'greet' has no 'sr-Latn' string in the inline strings; "
        + "using the source language 'en'")
    #expect(jobs[4...].allSatisfy { !$0.notes.contains { $0.message.contains("'greet'") } })
  }

  /// A Chinese locale reads the table an iPhone would show (Apple's ICU,
  /// `ualoc_localizationsToUse`, takes `zh` for Simplified, `zh-TW` for
  /// `zh-Hant-TW`, and falls back to a table whose parent is the locale's
  /// script's: `zh-HK`'s is `zh-Hant`, `zh-CN`'s `zh-Hans`): `zh-TW` drew
  /// the Simplified `zh` table beside a `zh-HK` one, `zh-Hant` the English
  /// source, `zh-TW` and `zh-HK` a `zh`-only app's Simplified strings,
  /// `zh-SG` English beside a `zh-CN` table, and `zh-TW` English beside a
  /// table written `zh-Hant-TW`.
  @Test func chineseLocalesReadTheTableAnIPhoneShows() throws {
    func greetings(_ locales: [String], _ tables: String) throws -> [String] {
      let inline = "{ en: { greet: Settings, items: x }, \(tables) }"
      let spec = try JobParser.parse(Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline), file: "j.cfg")
      return spec.localizedJobs().map { $0.screens[0].views[0].text ?? "" }
    }
    let hongKong = try greetings(
      ["zh-TW", "zh-Hant", "zh-Hant-TW", "zh-HK", "zh-SG", "zh"], #"zh: { greet: "设置" }, zh-HK: { greet: "設定 HK" }"#)
    #expect(hongKong == ["設定 HK", "設定 HK", "設定 HK", "設定 HK", "设置", "设置"])
    let simplifiedOnly = try greetings(["zh-TW", "zh-HK", "zh-MO", "zh-Hant"], #"zh: { greet: "设置" }"#)
    #expect(simplifiedOnly == ["Settings", "Settings", "Settings", "Settings"])
    let regional = try greetings(
      ["zh-SG", "zh-Hans", "zh", "zh-TW", "zh-HK"], #"zh-CN: { greet: "设置 CN" }, zh-Hant-TW: { greet: "設定 TW" }"#)
    #expect(regional == ["设置 CN", "设置 CN", "设置 CN", "設定 TW", "設定 TW"])
  }

  /// A locale may end in Unicode's `-u-` keywords (BCP 47, RFC 6067), as
  /// iOS's Number Format setting writes Arabic with Latin digits (the text
  /// sweep): `ar-u-nu-latn` was an error, "'u' is not a script, region or
  /// variant subtag". It reads its language's table and lays out right to
  /// left, and its numbers and status bar clock take the digits `nu` names
  /// (Thai's own in `th-u-nu-thai`, which Foundation's formatter crashed on
  /// in BCP 47's form); a keyword that changes nothing drawn (`hc-h23`) is
  /// read past, and the tag is written in lower case.
  @Test func aLocaleTakesUnicodeKeywords() throws {
    let inline = #"{ en: { greet: "%lld items", items: x }, ar: { greet: "%lld عناصر" }, th: { greet: "%lld รายการ" } }"#
    let locales = ["ar-u-nu-latn", "ar-EG", "AR-EG-U-NU-LATN", "th-u-nu-thai", "en-u-hc-h23"]
    let spec = try JobParser.parse(
      Self.job(locales: "[\(locales.joined(separator: ", "))]", strings: inline, key: "greet, args: [12]"), file: "j.cfg")
    let jobs = spec.localizedJobs()
    #expect(jobs.map(\.name) == ["j.ar-u-nu-latn", "j.ar-EG", "j.ar-EG-u-nu-latn", "j.th-u-nu-thai", "j.en-u-hc-h23"])
    #expect(jobs.map { $0.screens[0].views[0].text ?? "" } == ["12 عناصر", "١٢ عناصر", "12 عناصر", "๑๒ รายการ", "12 items"])
    #expect(jobs.allSatisfy { !$0.notes.contains { $0.message.contains("'greet'") } }, "\(jobs.map(\.notes))")
    #expect(Localization.isRightToLeft("ar-u-nu-latn") && !Localization.isRightToLeft("en-u-nu-arab"))
    let clocks = ["ar-EG", "ar-EG-u-nu-latn", "th-u-nu-thai", "en-u-nu-arab"].map { Localization.localDigits("9:41", locale: $0) }
    #expect(clocks == ["٩:٤١", "9:41", "๙:๔๑", "٩:٤١"])
  }

  /// Captions take the job's strings too (`text: { key }` on the stage's,
  /// `caption: { key }` beside a step), each locale its own, shaped in its
  /// language; and a localized job keeps its stage's background image (it
  /// was dropped from the job's assets and drawn as the grey placeholder).
  @Test func captionsAreLocalizedAndTheStageImageKept() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.copyItem(atPath: AssetLoaderTests.assets + "/cover.png", toPath: dir + "/bg.png")
    let job = """
      name: s
      canvas: { size: 100x200, scale: 1, fps: 10 }
      locales: [en, ar]
      appearances: [light, dark]
      strings: { en: { c: "Hello", d: "%lld photos" }, ar: { c: "مرحبا", d: "%lld صور" } }
      stage: { device: none, background: { image: bg.png }, padding: 20, caption: { text: { key: c }, lines: 1, font: 14 } }
      screens:
        a: { background: "#FFFFFF" }
        b: { background: "#0000FF" }
      timeline:
        - hold: 0.3
        - push: { to: b, transition: push }
          caption: { key: d, args: [3] }
      """
    let path = try write(job, to: "s.cfg", in: dir)
    let jobs = try JobParser.load(path: path).localizedJobs()
    #expect(jobs.map(\.name) == ["s.en.light", "s.en.dark", "s.ar.light", "s.ar.dark"])
    #expect(jobs.map { $0.stage?.caption?.text } == ["Hello", "Hello", "مرحبا", "مرحبا"])
    #expect(jobs.map { $0.stage?.captionChanges.first?.text } == ["3 photos", "3 photos", "3 صور", "3 صور"])
    #expect(jobs.map { $0.stage?.caption?.style.language } == ["en", "en", "ar", "ar"])
    #expect(jobs.allSatisfy { $0.assets.map(\.path) == ["bg.png"] })
    // A caption key the strings lack is an error at it.
    let missing = try write(job.replacingOccurrences(of: "{ key: c }", with: "{ key: nope }"), to: "m.cfg", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: missing) }
    #expect(error.description == "\(missing):6:92: error: stage.caption.text.key: no string 'nope' in the inline strings; expected one of: c, d")
  }

  /// A stage's background image takes `{locale}` and `{appearance}` as a
  /// screen's image does (the path was kept as written, so every job
  /// failed to read 'bg-{locale}-{appearance}.png'); one missing for one
  /// job names its locale and appearance.
  @Test func aStageImageTakesTheLocaleAndAppearance() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for name in ["bg-en-light", "bg-en-dark", "bg-ar-light"] {
      try FileManager.default.copyItem(atPath: AssetLoaderTests.assets + "/cover.png", toPath: dir + "/\(name).png")
    }
    let job = """
      name: s
      canvas: { size: 100x200, scale: 1, fps: 10 }
      locales: [en, ar]
      appearances: [light, dark]
      strings: { en: { c: "Hello" }, ar: { c: "مرحبا" } }
      stage: { device: none, background: { image: "bg-{locale}-{appearance}.png" }, padding: 20 }
      screens:
        a: { background: "#FFFFFF" }
      timeline:
        - hold: 0.3
      """
    let path = try write(job, to: "s.cfg", in: dir)
    let jobs = try JobParser.load(path: path).localizedJobs()
    #expect(jobs.map { $0.assets.map(\.path) } == [["bg-en-light.png"], ["bg-en-dark.png"], ["bg-ar-light.png"], ["bg-ar-dark.png"]])
    for job in jobs.prefix(3) { try AssetLoader.checkFiles(of: job) }
    #expect(throws: Diagnostic(
      SourceLocation(file: path, line: 6, column: 38),
      "stage.background.image (appearance 'dark') (locale 'ar'): cannot read 'bg-ar-dark.png': No such file or directory")) {
      try AssetLoader.checkFiles(of: jobs[3])
    }
  }

  @Test(arguments: [
    ("[en, xx]", "App.xcstrings", "greet", "j.cfg:3:15: error: locales[1]: unknown locale code \"xx\": no ISO 639 language 'xx'"),
    ("[en, english]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"english\": not a BCP 47 tag (a language code of 2 or 3 letters first: en, ar, ja, pt-BR, zh-Hans)"),
    ("[en, pt-QQ]", "App.xcstrings", "greet", "j.cfg:3:15: error: locales[1]: unknown locale code \"pt-QQ\": no ISO 3166 region 'QQ'"),
    // Apple's and POSIX's underscore, and withdrawn codes, say what to write.
    ("[en, pt_BR]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"pt_BR\": BCP 47 joins its parts with '-': write 'pt-BR'"),
    ("[en, iw]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"iw\": 'iw' is the former code of that language: write 'he'"),
    // A variant is 5–8 letters or digits, or 4 beginning with a digit (de-1996 is valid, de-abcd is not).
    ("[en, de-1996, de-abcd]", "App.xcstrings", "greet",
     "j.cfg:3:24: error: locales[2]: unknown locale code \"de-abcd\": no ISO 15924 script 'abcd'"),
    ("[en, de-1996-1996]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"de-1996-1996\": the variant '1996' is given twice"),
    ("[en, \"ar-x\u{061C}y\"]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-x\\u{61c}y\": 'x\\u{61c}y' is not a script, region or variant subtag"),
    // A code that would reorder the terminal's line is echoed escaped.
    ("[en, \"ar-\u{202E}x\"]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-\\u{202e}x\": '\\u{202e}x' is not a script, region or variant subtag"),
    // A `-u-` extension takes Unicode's keywords, a numbering system of ten digits; no other extension.
    ("[en, ar-u-nu-roman]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-u-nu-roman\": no numbering system 'roman' of ten digits for '-u-nu-' "
       + "(latn, arab, arabext, deva, beng, thai, …)"),
    ("[en, ar-x-mine]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-x-mine\": the '-x-' extension is not taken "
       + "(a locale may end in Unicode's '-u-' keywords: ar-u-nu-latn)"),
    ("[en, ar-u-nu]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-u-nu\": '-u-nu-' names no numbering system "
       + "(latn, arab, arabext, deva, beng, thai, …)"),
    ("[en, ar-u]", "App.xcstrings", "greet",
     "j.cfg:3:15: error: locales[1]: unknown locale code \"ar-u\": '-u-' names no keyword (ar-u-nu-latn: Latin digits)"),
    ("[ar]", "{ en: { greet: Hi, items: x }, ar-u-nu-latn: { greet: y } }", "greet",
     "j.cfg:4:41: error: strings.ar-u-nu-latn: unknown locale code \"ar-u-nu-latn\": a table's language takes no extension: write 'ar'"),
    ("[en, ar-u-nu-latn, AR-U-NU-LATN]", "App.xcstrings", "greet",
     "j.cfg:3:29: error: locales[2]: locale 'AR-U-NU-LATN' is already listed at j.cfg:3:15"),
    ("[en, en]", "App.xcstrings", "greet", "j.cfg:3:15: error: locales[1]: locale 'en' is already listed at j.cfg:3:11"),
    // Codes match in any case, as BCP 47's do (and en, EN would name one file on macOS).
    ("[en, EN]", "App.xcstrings", "greet", "j.cfg:3:15: error: locales[1]: locale 'EN' is already listed at j.cfg:3:11"),
    ("[en]", "App.xcstrings", "greeting",
     "j.cfg:8:48: error: screens.home.views[0].text.key: no string 'greeting' in 'App.xcstrings'; expected one of: Done, greet, items"),
    ("[en]", "Missing.xcstrings", "greet", "j.cfg:4:10: error: strings: cannot read 'Missing.xcstrings': No such file or directory"),
    // An empty path is no path, as everywhere else: it said "cannot read ''".
    ("[en]", "\"\"", "greet",
     "j.cfg:4:10: error: strings: expected the path of a .xcstrings String Catalog, or { LANGUAGE: { KEY: STRING } }, got \"\""),
    // Tagalog's tl is a language (ICU folds it into fil); a job with locales and no strings says so.
    ("[tl]", "{}", "greet",
     "j.cfg:8:48: error: screens.home.views[0].text.key: there are no strings: add strings: FILE.xcstrings or inline tables"),
  ])
  func errorsAtTheirPlace(locales: String, strings: String, key: String, expected: String) throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try write(Self.job(locales: locales, strings: strings, key: key), to: "j.cfg", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: path) }
    #expect(error.description == expected.replacingOccurrences(of: "j.cfg:", with: "\(path):"))
  }

  @Test func brokenCatalogIsAnErrorInTheCatalog() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : 3 } }\n}\n", to: "Bad.xcstrings", in: dir)
    try write("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n", to: "Cut.xcstrings", in: dir)
    let bad = try write(Self.job(strings: "Bad.xcstrings"), to: "bad.cfg", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: bad) }
    #expect(error.location == SourceLocation(file: dir + "/Bad.xcstrings", line: 3, column: 43))
    #expect(error.message == "strings.a.localizations: expected a mapping of languages, got 3")
    let cut = try write(Self.job(strings: "Cut.xcstrings"), to: "cut.cfg", in: dir)
    let cutError = try #require(throws: Diagnostic.self) { try JobParser.load(path: cut) }
    #expect(cutError.location.file == dir + "/Cut.xcstrings" && cutError.message.hasPrefix("invalid JSON: "))
    // A catalog is JSON, as Xcode reads it: YAML that libyaml would take, a number for a string,
    // a string across lines, and plural forms without 'other' are errors where they are written.
    let cases: [(String, Int, Int, String)] = [
      ("sourceLanguage: en\nstrings: {}\n", 1, 1, "invalid JSON: expected a value (a string in double quotes, a number, { or [), got a YAML mapping"),
      ("{\n  sourceLanguage : \"en\"\n}\n", 2, 3, "invalid JSON: expected a key in double quotes, got \"sourceLanguage\""),
      ("{\n  \"sourceLanguage\" : 'en'\n}\n", 2, 22, "invalid JSON: expected a value: a string in double quotes, a number, true, false, null, { or [, got \"en\""),
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"value\" : 42 } } } } }\n}\n",
       3, 81, "strings.a.localizations.en.stringUnit.value: expected a string, got 42"),
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"comment\" : \"one\ntwo\" } }\n}\n", 3, 41, "invalid JSON: a string holds no line break (write \\n)"),
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"en\" : { \"variations\" : { \"plural\" : {\n"
        + "    \"one\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"%lld one\" } } } } } } } }\n}\n",
       3, 82, "strings.a.localizations.en.variations.plural: no 'other' form (has one): 'other' is the form of every number whose category has none, and a String Catalog needs it"),
      // libyaml takes a trailing comma and a comment; JSON does not (a "#" or "," in a string is fine).
      ("{\n  \"sourceLanguage\" : \"en, #1\",\n  \"strings\" : { \"a\" : { \"comment\" : \"x\" }, },\n}\n", 3, 42,
       "invalid JSON: a comma before '}' (JSON has no trailing commas)"),
      ("{\n  \"sourceLanguage\" : \"en\", # the source\n  \"strings\" : {}\n}\n", 2, 28, "invalid JSON: # starts no comment in JSON"),
      // A surrogate pair is read as one escape two characters shorter; places after it keep the file's columns.
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"comment\" : \"\\ud83d\\ude00\", \"bogus\" : 1 } }\n}\n", 3, 53,
       "unknown key 'bogus' in strings.a; expected one of: localizations, comment, extractionState, shouldTranslate, isCommentAutoGenerated, commentGenerationVersion, generatesSymbol"),
      // Languages are BCP 47 codes, one table each whatever the case.
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"en_GB\" : {} } } }\n}\n", 3, 45,
       "strings.a.localizations.en_GB: unknown locale code \"en_GB\": BCP 47 joins its parts with '-': write 'en-GB'"),
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"de\" : {}, \"DE\" : {} } } }\n}\n", 3, 56,
       "strings.a.localizations.DE: the language \"DE\" is already given at {dir}/Case10.xcstrings:3:45"),
      // Shapes Xcode never writes (the locales sweep): plural and device side by side (the device forms were
      // dropped), and a device Xcode does not name ('iPhone' was a form no device took: 'other' was drawn).
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"en\" : { \"variations\" : {\n"
        + "    \"plural\" : { \"other\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"x\" } } },\n"
        + "    \"device\" : { \"ipad\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"y\" } } } } } } } }\n}\n",
       5, 5, "strings.a.localizations.en.variations.device: a variation is by plural or by device, not both (plural is given "
        + "beside it); vary each device's form by plural inside it, as Xcode writes it: { device: { iphone: { variations: { plural: … } } } }"),
      ("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { \"localizations\" : { \"en\" : { \"variations\" : {\n"
        + "    \"device\" : { \"iPhone\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"y\" } },\n"
        + "      \"other\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"z\" } } } } } } } }\n}\n",
       4, 18, "strings.a.localizations.en.variations.device.iPhone: unknown device 'iPhone' "
        + "(expected one of iphone, ipad, ipod, mac, applewatch, appletv, applevision, other)"),
      // Text after the closing brace (a second object, a comment) was "did not find expected <document start>"
      // (the locales sweep); a "}" in a string closes nothing.
      ("\u{FEFF}{\n  \"sourceLanguage\" : \"en}\"\n}\n{}\n", 4, 1,
       "invalid JSON: text after the '}' that ends the catalog (JSON holds one value)"),
      ("{ \"sourceLanguage\" : \"en\" } // the catalog\n", 1, 29,
       "invalid JSON: text after the '}' that ends the catalog (JSON holds one value)"),
    ]
    // A character beyond the BMP written as JSON's surrogate pair (Python's json.dump writes emoji so).
    try write("{ \"sourceLanguage\" : \"en\", \"strings\" : { \"a\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : "
      + "{ \"state\" : \"translated\", \"value\" : \"%lld \\ud83d\\ude00 \\\\ud83d\" } } } }, \"items\" : {} } }\n",
      to: "Surrogates.xcstrings", in: dir)
    let surrogates = try write(Self.job(locales: "[en]", strings: "Surrogates.xcstrings", key: "a"), to: "surrogates.cfg", in: dir)
    #expect(try JobParser.load(path: surrogates).localizedJobs()[0].screens[0].views[0].text == "%lld \u{1F600} \\ud83d")
    // JSON strings may hold U+2028 and U+0085 as they are: ordinary characters (libyaml broke lines at them).
    try write("{ \"sourceLanguage\" : \"en\", \"strings\" : { \"a\" : { \"comment\" : \"one\u{2028}two\u{85}three\", "
      + "\"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"go\u{85}od\u{2028}\" } } } }, "
      + "\"items\" : {} } }\n", to: "Separators.xcstrings", in: dir)
    let separators = try write(Self.job(locales: "[en]", strings: "Separators.xcstrings", key: "a"), to: "separators.cfg", in: dir)
    #expect(try JobParser.load(path: separators).localizedJobs()[0].screens[0].views[0].text == "go\u{85}od\u{2028}")
    for (n, (catalog, line, column, message)) in cases.enumerated() {
      try write(catalog, to: "Case\(n).xcstrings", in: dir)
      let job = try write(Self.job(locales: "[en]", strings: "Case\(n).xcstrings", key: "a"), to: "case\(n).cfg", in: dir)
      let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: job) }
      #expect(error.location == SourceLocation(file: dir + "/Case\(n).xcstrings", line: line, column: column), "\(n): \(error)")
      #expect(error.message == message.replacingOccurrences(of: "{dir}", with: dir), "\(n)")
    }
  }

  /// A table's language matches a locale in any case, as locale codes do
  /// (README): a `zh-hant` table is the `zh-Hant` locale's, a catalog's
  /// `DE` the `de` locale's. It showed the source language's string.
  @Test func tableLanguagesMatchLocalesInAnyCase() throws {
    let inline = """
      canvas: { size: 120x60, scale: 1, fps: 10 }
      locales: [zh-Hant, de]
      strings:
        DE: { greet: "Hallo" }
        zh-hant: { greet: "你好" }
      screens:
        a: { views: [ { frame: [0, 0, 120, 60], text: { key: greet } } ] }
      timeline: [hold: 0.1]
      """
    let jobs = try JobParser.parse(inline, file: "j.cfg").localizedJobs()
    #expect(jobs.map { $0.screens[0].views[0].text } == ["你好", "Hallo"])
    let twice = inline.replacingOccurrences(of: "  DE: {", with: "  de: { greet: \"x\" }\n  DE: {")
    let error = try #require(throws: Diagnostic.self) { try JobParser.parse(twice, file: "j.cfg") }
    #expect(error.description == "j.cfg:5:3: error: strings.DE: the language \"DE\" is already given at j.cfg:4:3")
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(
      "{ \"sourceLanguage\" : \"EN\", \"strings\" : { \"greet\" : { \"localizations\" : { \"DE\" : { \"stringUnit\" : "
        + "{ \"state\" : \"translated\", \"value\" : \"Hallo\" } } } }, \"items\" : {} } }\n",
      to: "Upper.xcstrings", in: dir)
    let path = try write(Self.job(locales: "[de, en]", strings: "Upper.xcstrings"), to: "upper.cfg", in: dir)
    #expect(try JobParser.load(path: path).localizedJobs().map { $0.screens[0].views[0].text } == ["Hallo", "greet"])
  }

  /// The text a label draws is capped as `text:` is (shaping cost grows
  /// faster than the length: 400 000 combining marks took minutes), at the
  /// key that draws it; a catalog's strings no job draws are not (any entry
  /// over 1000 characters failed every job of the catalog). A catalog that
  /// is a FIFO or a device is refused at once, and one the runner's rule
  /// refuses is never opened.
  @Test func catalogsAreBoundedRegularFilesTheRunnerAllows() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let unused = ", \"unused\" : { \"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \""
      + String(repeating: "u", count: 5000) + "\" } } } }\n  }"
    for (length, fails) in [(1000, false), (1001, true)] {
      let value = "a" + String(repeating: "\u{301}", count: length - 1)
      // Written with a `%%`, drawn one character shorter.
      for written in [value, "%%" + value.unicodeScalars.dropLast().map(String.init).joined()] {
        let catalog = Self.catalog.replacingOccurrences(of: "\"Hello\"", with: "\"\(written)\"")
          .replacingOccurrences(of: "\n  },\n  \"version\"", with: unused + ",\n  \"version\"")
        try write(catalog, to: "Long.xcstrings", in: dir)
        let job = try write(Self.job(locales: "[en, ar]", strings: "Long.xcstrings"), to: "long.cfg", in: dir)
        let spec = try JobParser.load(path: job)
        #expect(spec.localization?.tables["en"]?["unused"]?.asWritten().count == 5000)
        let (en, ar) = (spec.localizedJobs()[0], spec.localizedJobs()[1])
        // Arabic draws its own string: only English draws the long one.
        #expect(throws: Never.self) { try ar.checkLocale() }
        if fails {
          let error = try #require(throws: Diagnostic.self) { try en.checkLocale() }
          #expect(error.location == SourceLocation(file: job, line: 8, column: 48))
          #expect(error.message.hasPrefix("screens.home.views[0].text.key: the 'en' text of 'greet' in 'Long.xcstrings' (\""))
          #expect(error.message.hasSuffix("…\") has more than the 1000 characters a label draws"))
        } else {
          #expect(throws: Never.self) { try en.checkLocale() }
          #expect(en.screens[0].views[0].text == (written == value ? value : String(written.unicodeScalars.dropFirst())))
        }
      }
    }
    // A drawn string of 16 MB is too long at once, with args or without: a
    // regular expression searched it for specifiers in seconds per pass.
    let huge = "%lld " + String(repeating: "a", count: 16 << 20)
    try write(Self.catalog.replacingOccurrences(of: "\"Hello\"", with: "\"\(huge)\""), to: "Huge.xcstrings", in: dir)
    for key in ["greet", "greet, args: [3]"] {
      let start = ContinuousClock.now
      let job = try write(Self.job(locales: "[en]", strings: "Huge.xcstrings", key: key), to: "huge.cfg", in: dir)
      let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: job).localizedJobs()[0].checkLocale() }
      #expect(error.message.hasSuffix(key == "greet" ? "has more than the 1000 characters a label draws"
        : "cannot take them: the text comes to more than the 1000 characters a label holds"))
      #expect(ContinuousClock.now - start < .seconds(10))
    }
    #expect(mkfifo(dir + "/Fifo.xcstrings", 0o644) == 0)
    let fifo = try write(Self.job(locales: "[en]", strings: "Fifo.xcstrings"), to: "fifo.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: fifo, line: 4, column: 10), "strings: cannot read 'Fifo.xcstrings': not a regular file (a FIFO)")) {
      try JobParser.load(path: fifo)
    }
    let zero = try write(Self.job(locales: "[en]", strings: "/dev/zero"), to: "zero.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: zero, line: 4, column: 10), "strings: cannot read '/dev/zero': not a regular file (a character device)")) {
      try JobParser.load(path: zero)
    }
    try write("just text\n", to: "Plain.xcstrings", in: dir)
    let plainText = try write(Self.job(locales: "[en]", strings: "Plain.xcstrings"), to: "plain-text.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: dir + "/Plain.xcstrings", line: 1, column: 1),
      "invalid JSON: expected a value: a string in double quotes, a number, true, false, null, { or [, got \"just text\"")) {
      try JobParser.load(path: plainText)
    }
    let refusing = FileAccess { $0.hasSuffix("App.xcstrings") ? "is not for this job" : nil }
    let plain = try write(Self.job(locales: "[en]"), to: "plain.cfg", in: dir)
    #expect(throws: Diagnostic(SourceLocation(file: plain, line: 4, column: 10), "strings: 'App.xcstrings' is not for this job")) {
      try JobParser.load(path: plain, access: refusing)
    }
  }

  /// A catalog as Xcode lays it out, 400 strings in 30 languages, is 1.6 MB:
  /// it was refused as larger than 1 MiB, the job file's limit. A catalog
  /// may have 64 MiB.
  @Test func catalogsOfRealAppsAreNotTooLarge() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let languages = ["en", "de", "fr", "es", "it", "ja", "ko", "zh-Hans", "zh-Hant", "pt-BR", "ru", "ar", "he", "tr", "pl",
      "nl", "sv", "da", "fi", "nb", "cs", "hu", "ro", "uk", "el", "th", "vi", "id", "ms", "hi"]
    let entries = (0..<400).map { i in
      let localizations = languages.map { language in
        "        \"\(language)\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n"
          + "            \"value\" : \"\(language) \(i)\"\n          }\n        }"
      }
      let key = i == 0 ? "greet" : i == 1 ? "items" : "key \(i)"
      return "    \"\(key)\" : {\n      \"localizations\" : {\n\(localizations.joined(separator: ",\n"))\n      }\n    }"
    }
    let catalog = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n\(entries.joined(separator: ",\n"))\n  },\n  \"version\" : \"1.0\"\n}\n"
    #expect(catalog.utf8.count > 1 << 20)
    try write(catalog, to: "Big.xcstrings", in: dir)
    let job = try write(Self.job(locales: "[de]", strings: "Big.xcstrings"), to: "big.cfg", in: dir)
    #expect(try JobParser.load(path: job).localizedJobs()[0].screens[0].views.map(\.text) == ["de 0", "de 1"])
    // Past 64 MiB the catalog is refused, before it is read whole.
    let huge = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 20) + Array("{}".utf8)
    #expect(FileManager.default.createFile(atPath: dir + "/Huge.xcstrings", contents: Data(huge)))
    let hugeJob = try write(Self.job(locales: "[de]", strings: "Huge.xcstrings"), to: "huge.cfg", in: dir)
    #expect(throws: Diagnostic(
      SourceLocation(file: dir + "/Huge.xcstrings", line: 1, column: 1),
      "the String Catalog is larger than 64 MiB; is it the right file?")) {
      try JobParser.load(path: hugeJob)
    }
  }

  /// A catalog's key is its source text, often a sentence or a paragraph:
  /// a key of more than 1024 characters was an error ("invalid JSON:
  /// expected a value … got \"\""), libyaml's limit on a simple key. It is
  /// read (written explicitly for libyaml), places after it on its line
  /// are the file's, and messages show it shortened.
  @Test func longCatalogKeysAreRead() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let key = String(repeating: "By continuing you agree. ", count: 60) + "é"
    #expect(key.count == 1501)
    let catalog = "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"items\" : {},\n  \"\(key)\" : { \"localizations\" : { \"de\" : "
      + "{ \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"Weiter \\ud83d\\ude00\" } } } } } }\n"
    try write(catalog, to: "Long.xcstrings", in: dir)
    let job = try write(Self.job(locales: "[de]", strings: "Long.xcstrings", key: "\"\(key)\""), to: "long.cfg", in: dir)
    #expect(try JobParser.load(path: job).localizedJobs()[0].screens[0].views[0].text == "Weiter \u{1F600}")
    // An error after the key and a surrogate pair on its line is at the file's column, its path the key shortened.
    try write(catalog.replacingOccurrences(of: "\"state\"", with: "\"stat\""), to: "Long.xcstrings", in: dir)
    let error = try #require(throws: Diagnostic.self) { try JobParser.load(path: job) }
    #expect(error.location == SourceLocation(file: dir + "/Long.xcstrings", line: 2, column: 1557))
    #expect(error.message == "unknown key 'stat' in strings.\"By continuing you agree. By continuing y…\".localizations.de.stringUnit; "
      + "did you mean 'state'?")
    try write(catalog.replacingOccurrences(of: "\"value\" : \"Weiter \\ud83d\\ude00\"", with: "\"value\" : \"\\ud83d\\ude00\", \"x\" : 1"), to: "Long.xcstrings", in: dir)
    let after = try #require(throws: Diagnostic.self) { try JobParser.load(path: job) }
    #expect(after.location == SourceLocation(file: dir + "/Long.xcstrings", line: 2, column: 1607))
  }

  @Test func localeScreenshotMissingForOneLocaleNamesIt() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/shots/en", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dir + "/shots/ar", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: AssetLoaderTests.assets + "/cover.png", toPath: dir + "/shots/en/home.png")
    try FileManager.default.copyItem(atPath: AssetLoaderTests.assets + "/cover.png", toPath: dir + "/shots/ar/home.png")
    let path = try write(Self.job(image: "shots/{locale}/home.png"), to: "j.cfg", in: dir)
    let jobs = try JobParser.load(path: path).localizedJobs()
    try AssetLoader.checkFiles(of: jobs[0])
    try AssetLoader.checkFiles(of: jobs[1])
    #expect(throws: Diagnostic(
      SourceLocation(file: path, line: 7, column: 5),
      "screens.home.image (locale 'ja'): cannot read 'shots/ja/home.png': No such file or directory")) {
      try AssetLoader.checkFiles(of: jobs[2])
    }
  }

  @Test func batchRendersAnOutputPerLocaleAndLocaleSubsets() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.job(), to: "app.cfg", in: dir)
    let out = path(dir, "out")
    let capture = Capture()
    #expect(transvid([dir, "-o", out, "-q", "--report", path(dir, "r.json")], capture) == 0, "\(capture.err)")
    #expect(allEntries(in: out).filter { !$0.hasPrefix(".") } == ["app.ar.png", "app.en.png", "app.ja.png"])
    let report = try String(contentsOfFile: path(dir, "r.json"), encoding: .utf8)
    for name in ["app.en", "app.ar", "app.ja"] { #expect(report.contains("\"\(name)\"")) }
    let ar = try Data(contentsOf: URL(fileURLWithPath: path(out, "app.ar.png")))
    let en = try Data(contentsOf: URL(fileURLWithPath: path(out, "app.en.png")))
    #expect(ar != en)

    let subset = path(dir, "subset")
    #expect(transvid([dir, "-o", subset, "-q", "--locale", "ar,ja"]) == 0)
    #expect(allEntries(in: subset).filter { !$0.hasPrefix(".") } == ["app.ar.png", "app.ja.png"])
    // Locale codes match in any case (BCP 47): the job's own spelling names the output.
    let upper = path(dir, "upper")
    #expect(transvid([dir, "-o", upper, "-q", "--locale", "AR"]) == 0)
    #expect(allEntries(in: upper).filter { !$0.hasPrefix(".") } == ["app.ar.png"])
    let none = Capture()
    #expect(transvid([dir, "-o", subset, "-q", "--locale", "fr"], none) == 1)
    #expect(none.err.joined().contains("locales: the job has no locale 'fr' (it has en, ar, ja)"))
    // In a batch, a job that lists none of the codes is left out (said once), and a code
    // no job lists is a usage error: a typo in a list is not ignored.
    let mixed = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: mixed) }
    try write(Self.job(), to: "app.cfg", in: mixed)
    try write(Self.job(locales: "[en, de]"), to: "other.cfg", in: mixed)
    try write("canvas: { size: 20x20, scale: 1, fps: 10 }\noutput: { formats: [png] }\nscreens: { a: {} }\ntimeline: [hold: 0.1]\n", to: "plain.cfg", in: mixed)
    let some = path(mixed, "some"), left = Capture()
    #expect(transvid([mixed, "-o", some, "--locale", "ja"], left) == 0, "\(left.err)")
    #expect(allEntries(in: some).filter { !$0.hasPrefix(".") } == ["app.ja.png"])
    #expect(left.err.first == "transvid: note: --locale ja leaves out 2 jobs that list none of its locales: \(path(mixed, "other.cfg")), \(path(mixed, "plain.cfg"))")
    let typo = Capture()
    #expect(transvid([mixed, "-o", some, "--locale", "ja,fr"], typo) == 2)
    #expect(typo.err == ["transvid: --locale: no job lists 'fr' (the jobs list ar, de, en, ja)"])
    // No job lists it: each fails, a job without locales too.
    let nowhere = Capture()
    #expect(transvid([mixed, "-o", some, "--locale", "fr"], nowhere) == 1)
    #expect(nowhere.err.contains("\(path(mixed, "plain.cfg")): error: the job has no locale 'fr' (it lists none: add locales: [fr] and its strings)"), "\(nowhere.err)")
    // What to add is spelt as a job's list takes it: BCP 47's case and hyphens, not the option's.
    let spelt = Capture()
    #expect(transvid([mixed, "-o", some, "--locale", "zh_hant_tw"], spelt) == 1)
    #expect(spelt.err.contains("\(path(mixed, "plain.cfg")): error: the job has no locale 'zh_hant_tw' (it lists none: add locales: [zh-Hant-TW] and its strings)"), "\(spelt.err)")
    // A code given twice, in any case, is named once (the CLI sweep: 'fr', 'FR' and [fr, fr]).
    let twice = Capture()
    #expect(transvid([path(mixed, "plain.cfg"), "-o", some, "--locale", "fr,FR"], twice) == 1)
    #expect(twice.err == ["\(path(mixed, "plain.cfg")): error: the job has no locale 'fr' (it lists none: add locales: [fr] and its strings)"], "\(twice.err)")
    let typoTwice = Capture()
    #expect(transvid([mixed, "-o", some, "--locale", "ja,fr,fr"], typoTwice) == 2)
    #expect(typoTwice.err == ["transvid: --locale: no job lists 'fr' (the jobs list ar, de, en, ja)"])

    // `transvid frame --locale ar` draws the Arabic frame: the same pixels as the batch's poster.
    let frame = path(dir, "ar-frame.png")
    #expect(transvid(["frame", path(dir, "app.cfg"), "--locale", "ar", "--time", "0", "-o", frame]) == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: frame)) == ar)

    let plan = Capture()
    #expect(transvid(["plan", dir, "-o", out], plan) == 0)
    #expect(plan.out.joined(separator: "\n").components(separatedBy: "up to date").count == 4)
  }
}

@Suite struct AppearanceTests {
  static let job = """
    canvas: { size: 40x40, scale: 1, fps: 10, background: systemBackground }
    output: { formats: [png] }
    appearances: [light, dark]
    locales: [en, ar]
    strings: { en: { t: Hi }, ar: { t: "مرحبا" } }
    screens:
      home:
        background: systemGroupedBackground
        views:
          - { kind: cell, frame: [0, 0, 40, 20], text: { key: t } }
          - { frame: [0, 20, 20, 20], color: label }
          - { frame: [20, 20, 20, 20], color: "#FF0000" }
    timeline: [hold: 0.1]
    """

  /// A screen a sheet presents is drawn at UIKit's elevated level in dark
  /// mode: its system backgrounds lighter than the base level's black, so
  /// the card stands out from the screen behind it; light mode has no
  /// elevated values, and a screen pushed or shown in place keeps the base.
  @Test func aSheetIsElevatedInTheDark() throws {
    let text = """
      canvas: { size: 40x100, scale: 1, fps: 10, background: "#000000" }
      output: { formats: [png] }
      appearances: [light, dark]
      screens:
        a:
          background: systemBackground
          views: [ { kind: cell, frame: [0, 0, 40, 20] } ]
        b:
          background: systemBackground
          views:
            - { kind: cell, frame: [0, 0, 40, 20] }
            - { frame: [0, 20, 40, 20], color: secondarySystemBackground }
            - { frame: [0, 40, 40, 20], color: tertiarySystemGroupedBackground }
      timeline:
        - hold: 0.1
        - present: { to: b, transition: sheet }
      """
    let jobs = try JobParser.parse(text, file: "sheet.cfg").localizedJobs()
    let (light, dark) = (jobs[0], jobs[1])
    let grey = { (v: UInt8) in Color(red8: v, green8: v, blue8: v + 2) }
    #expect(dark.screens[1].background == grey(28))
    #expect(dark.screens[1].views.map(\.color) == [grey(44), grey(44), grey(58)])
    #expect(dark.screens[0].background == Color(red8: 0, green8: 0, blue8: 0) && dark.screens[0].views[0].color == grey(28))
    #expect(light.screens[1].background == .white && light.screens[1].views[0].color == .white)
  }

  @Test func systemColoursResolvePerAppearance() throws {
    let jobs = try JobParser.parse(Self.job, file: "look.cfg").localizedJobs()
    #expect(jobs.map(\.name) == ["look.en.light", "look.en.dark", "look.ar.light", "look.ar.dark"])
    let light = jobs[0].screens[0], dark = jobs[1].screens[0]
    #expect(light.background == Color(red8: 242, green8: 242, blue8: 247))
    #expect(dark.background == Color(red8: 0, green8: 0, blue8: 0))
    #expect(light.views[1].color == .black && dark.views[1].color == Color(red8: 255, green8: 255, blue8: 255))
    #expect(light.views[0].color == .white && dark.views[0].color == Color(red8: 28, green8: 28, blue8: 30))
    #expect(light.views[0].textStyle.color == .black && dark.views[0].textStyle.color == .white)
    #expect(light.views[2].color == dark.views[2].color)
    #expect(jobs[3].screens[0].views[0].text == "مرحبا" && jobs[3].screens[0].views[1].frame.origin.x == 20)
    let frame = FrameRenderer(spec: jobs[1]).frame(0, width: 40, height: 40)
    #expect(frame[5, 30] == Pixel(r: 255, g: 255, b: 255, a: 255))
  }

  @Test func batchWritesLocaleThenAppearance() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try write(Self.job, to: "look.cfg", in: dir)
    let out = path(dir, "out")
    #expect(transvid([dir, "-o", out, "-q", "--locale", "ar"]) == 0)
    #expect(allEntries(in: out).filter { !$0.hasPrefix(".") } == ["look.ar.dark.png", "look.ar.light.png"])
    let error = try #require(throws: Diagnostic.self) {
      try JobParser.parse(Self.job.replacingOccurrences(of: "[light, dark]", with: "[light, dim]"), file: "l.cfg")
    }
    #expect(error.description == "l.cfg:3:22: error: appearances[1]: unknown appearance \"dim\"; expected one of: light, dark")
  }

  /// `frame --appearance dark` draws the dark job's frame: the batch's dark
  /// poster, byte for byte (it drew the first appearance, whatever was asked).
  @Test func frameDrawsTheAppearanceAsked() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let job = try write(Self.job, to: "look.cfg", in: dir)
    let out = path(dir, "out")
    #expect(transvid([job, "-o", out, "-q", "--locale", "ar"]) == 0)
    for look in ["light", "dark"] {
      let frame = path(dir, "\(look).png")
      let capture = Capture()
      #expect(
        transvid(["frame", job, "--locale", "ar", "--appearance", look, "--time", "0", "-o", frame], capture) == 0,
        "\(capture.err)")
      #expect(FileManager.default.contents(atPath: frame) == FileManager.default.contents(atPath: path(out, "look.ar.\(look).png")))
    }
    let plain = try write(Self.job.replacingOccurrences(of: "appearances: [light, dark]\n", with: ""), to: "plain.cfg", in: dir)
    let none = Capture()
    #expect(transvid(["frame", plain, "--appearance", "dark", "--time", "0", "-o", path(dir, "x.png")], none) == 1)
    #expect(none.err == ["transvid: \(plain) has no appearance 'dark' (it is light only: add appearances: [light, dark])"])
    // Nor another language than its own: drawn as written, it would pass for the one asked.
    let unlocalized = try write(
      "name: u\ncanvas: { size: 40x60, scale: 1, fps: 10 }\nscreens: { a: {} }\ntimeline: [{ hold: 0.2 }]\n", to: "u.cfg", in: dir)
    let noLocale = Capture()
    #expect(transvid(["frame", unlocalized, "--locale", "ar", "--time", "0", "-o", path(dir, "u.png")], noLocale) == 1)
    #expect(noLocale.err == ["transvid: \(unlocalized) has no locale 'ar' (it lists none: add locales: [ar] and its strings)"])
    let spelt = Capture()
    #expect(transvid(["frame", unlocalized, "--locale", "AR_eg", "--time", "0", "-o", path(dir, "u.png")], spelt) == 1)
    #expect(spelt.err == ["transvid: \(unlocalized) has no locale 'AR_eg' (it lists none: add locales: [ar-EG] and its strings)"])
    #expect(transvid(["frame", plain, "--appearance", "light", "--time", "0", "-o", path(dir, "x.png")]) == 0)
    let usage = Capture()
    #expect(transvid(["frame", plain, "--appearance", "dim", "--time", "0", "-o", path(dir, "x.png")], usage) == 2)
    #expect(usage.err.first?.hasPrefix("transvid: --appearance needs light or dark, got 'dim'") == true)
    // One frame is of one locale: a list, or --locale twice, is a usage error (the second was dropped).
    for (locales, message) in [
      (["--locale", "ar,ru"], "'frame' draws one locale: give --locale once, with one code (got ar, ru)"),
      (["--locale", "ar", "--locale", "ru"], "option --locale is given twice ('--locale ar' and '--locale ru'); give it once"),
    ] {
      let two = Capture()
      #expect(transvid(["frame", job] + locales + ["--time", "0", "-o", path(dir, "two.png")], two) == 2)
      #expect(two.err == ["transvid: \(message)\nRun 'transvid --help' for usage."])
    }
  }

  /// `frame` without `--locale` or `--appearance` draws the job's first
  /// locale and appearance, in the order the job lists them, as README says.
  @Test func frameWithoutLocaleOrAppearanceDrawsTheFirstListed() throws {
    let dir = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("(without them, the job's first\n  locale and appearance, as listed;"))
    for (locales, appearances, first) in [("[en, ar]", "[light, dark]", "en.light"), ("[ar, en]", "[dark, light]", "ar.dark")] {
      let text = Self.job.replacingOccurrences(of: "locales: [en, ar]", with: "locales: \(locales)")
        .replacingOccurrences(of: "appearances: [light, dark]", with: "appearances: \(appearances)")
      let job = try write(text, to: "first.cfg", in: dir)
      let out = path(dir, "out")
      #expect(transvid([job, "-o", out, "-q", "--force"]) == 0)
      let frame = path(dir, "frame.png")
      #expect(transvid(["frame", job, "--time", "0", "-o", frame, "-q"]) == 0)
      let drawn = FileManager.default.contents(atPath: frame)
      #expect(drawn != nil && drawn == FileManager.default.contents(atPath: path(out, "first.\(first).png")), "\(locales) \(appearances)")
    }
  }
}
