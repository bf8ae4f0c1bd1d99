// `locales:` and `strings:` (see Localization.swift). A String Catalog is
// JSON, which is YAML: libyaml reads it with lines and columns, so a
// malformed catalog is an error at its own file:line:col.
//
// Catalog shape (Xcode 15):
//   { "sourceLanguage": "en", "version": "1.0",
//     "strings": { "greet": { "localizations": {
//         "ar": { "stringUnit": { "state": "translated", "value": "مرحبا" } },
//         "de": { "variations": { "plural": { "one": { "stringUnit": … }, "other": { "stringUnit": … } } } } } } } }
// A key without a source-language entry is its own source string, as Xcode reads it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JobDecoder {
  /// `locales` and `strings`, or nil when the job has neither.
  func localization(locales: YAMLNode?, strings: YAMLNode?) throws(Diagnostic) -> Localization? {
    guard locales != nil || strings != nil else { return nil }
    var codes: [String] = [], places: [SourceLocation] = []
    if let locales {
      let path = KeyPath.root.appending("locales")
      guard let items = locales.items, !items.isEmpty else {
        throw mismatch(locales, path, expected: "a list of locale codes such as [en, ar, ja, de]")
      }
      for (i, item) in items.enumerated() {
        let written = try string(item, path.appending(index: i), expected: "a locale code such as en, ar, pt-BR")
        if let problem = Localization.problem(with: written, extensions: true) {
          throw Diagnostic(item.location, "\(path.appending(index: i)): unknown locale code \(YAMLNode.quoted(written)): \(problem)")
        }
        // BCP 47 tags match in any case: AR is ar (right to left, the ar table, one output name).
        let code = Localization.canonical(written)
        if let first = codes.firstIndex(of: code) {
          throw Diagnostic(item.location, "\(path.appending(index: i)): locale '\(written)' is already listed at \(places[first])")
        }
        codes.append(code)
        places.append(item.location)
      }
    }
    var result = Localization(
      locales: codes, localeLocations: places, sourceLanguage: codes.first ?? "en", tables: [:])
    guard let strings else { return result }
    let path = KeyPath.root.appending("strings")
    if let written = strings.text {
      guard !written.isEmpty else {
        throw mismatch(strings, path, expected: "the path of a .xcstrings String Catalog, or { LANGUAGE: { KEY: STRING } }")
      }
      let file = try filePath(strings, path, expected: "the path of a .xcstrings String Catalog")
      result.stringsFile = file
      (result.sourceLanguage, result.tables) = try catalog(at: JobDecoder.resolve(file, relativeTo: self.file), as: file, from: strings)
    } else if let pairs = strings.pairs {
      var seen: [String: SourceLocation] = [:]
      for pair in pairs {
        let language = try tableLanguage(pair.key, at: pair.keyLocation, path.appending(pair.key), seen: &seen)
        let table = try fields(
          pair.value, path.appending(pair.key), expected: "a mapping of keys to strings", keys: pair.value.pairs?.map(\.key) ?? [])
        var values: [String: LocalizedString] = [:]
        for entry in table.pairs {
          values[entry.key] = .text(try localizedString(entry.value, table.path(entry.key)))
        }
        result.tables[language] = values
      }
      result.sourceLanguage = pairs.first.map { Localization.canonical($0.key) } ?? result.sourceLanguage
    } else {
      throw mismatch(strings, path, expected: "the path of a .xcstrings String Catalog, or { LANGUAGE: { KEY: STRING } }")
    }
    return result
  }

  /// A language strings are given in (a key of inline `strings:`, a
  /// catalog's `sourceLanguage` or one of its localizations): a known BCP 47
  /// code, in the canonical case `locales:` takes codes in, so a `zh-hant`
  /// table is the `zh-Hant` locale's. `seen` holds the codes given before
  /// beside it (one table per language, whatever the case).
  func tableLanguage(
    _ written: String, at location: SourceLocation, _ path: KeyPath, seen: inout [String: SourceLocation]
  ) throws(Diagnostic) -> String {
    var known: [String: String] = [:]
    return try tableLanguage(written, at: location, path, seen: &seen, known: &known)
  }

  /// `tableLanguage(_:at:_:seen:)`, for a catalog whose every key names the
  /// same few languages: `known` holds the codes already found good, as
  /// written, and their canonical case.
  func tableLanguage(
    _ written: String, at location: SourceLocation, _ path: KeyPath, seen: inout [String: SourceLocation],
    known: inout [String: String]
  ) throws(Diagnostic) -> String {
    let code: String
    if let checked = known[written] {
      code = checked
    } else {
      if let problem = Localization.problem(with: written) {
        throw Diagnostic(location, "\(path): unknown locale code \(YAMLNode.quoted(written)): \(problem)")
      }
      code = Localization.canonical(written)
      known[written] = code
    }
    if let first = seen[code] {
      throw Diagnostic(location, "\(path): the language \(YAMLNode.quoted(written)) is already given at \(first)")
    }
    seen[code] = location
    return code
  }

  /// The source language and tables of the String Catalog at `resolvedPath`.
  private func catalog(
    at resolvedPath: String, as written: String, from node: YAMLNode
  ) throws(Diagnostic) -> (String, [String: [String: LocalizedString]]) {
    if let refusal = access.refusal(resolvedPath) {
      throw Diagnostic(node.location, "strings: '\(SourceLocation.shown(written))' \(refusal)")
    }
    let bytes: [UInt8]
    switch JobDecoder.read(resolvedPath, maximumSize: SourceText.maximumCatalogSize) {
    case .success(let b): bytes = b
    case .failure(let failure):
      throw Diagnostic(
        node.location,
        "strings: cannot read '\(SourceLocation.shown(written))': \(failure)"
          + PathHint.hint(written: written, resolved: resolvedPath))
    }
    let decoded = try StringCatalogMemo.decoded(path: resolvedPath, bytes: bytes) { () throws(Diagnostic) in
      try Self.decodeCatalog(bytes, at: resolvedPath)
    }
    return (decoded.sourceLanguage, decoded.tables)
  }

  /// The source language and tables the String Catalog `bytes`, read at `resolvedPath`, give.
  private static func decodeCatalog(_ bytes: [UInt8], at resolvedPath: String) throws(Diagnostic) -> StringCatalogMemo.Decoded {
    let source = try SourceText(
      bytes: bytes, file: resolvedPath, what: "the String Catalog", maximumSize: SourceText.maximumCatalogSize)
    guard let root = try YAMLReader.parse(source, json: true, maximumNodes: YAMLReader.maximumCatalogNodes) else {
      throw Diagnostic(SourceLocation(file: resolvedPath, line: 1, column: 1), "the String Catalog is empty")
    }
    let decoder = JobDecoder(file: resolvedPath)
    let top = try decoder.fields(
      root, .catalog, expected: "a String Catalog: { sourceLanguage, strings, version }",
      keys: ["sourceLanguage", "strings", "version"])
    let languageNode = try decoder.required("sourceLanguage", in: top, "the catalog's language")
    var none: [String: SourceLocation] = [:]
    let language = try decoder.tableLanguage(
      try decoder.string(languageNode, top.path("sourceLanguage"), expected: "a language code"), at: languageNode.location,
      top.path("sourceLanguage"), seen: &none)
    var tables: [String: [String: LocalizedString]] = [:]
    var known: [String: String] = [:]
    guard let strings = top["strings"] else { return StringCatalogMemo.Decoded(sourceLanguage: language, tables: tables) }
    guard let entries = strings.pairs else { throw decoder.mismatch(strings, top.path("strings"), expected: "a mapping of keys") }
    for entry in entries {
      let entryPath = top.path("strings").appending(entry.key)
      let fields = try decoder.fields(entry.value, entryPath, keys: catalogEntryKeys, allowsNull: true)
      tables[language, default: [:]][entry.key] = .text(entry.key)
      guard let node = fields["localizations"] else { continue }
      guard let localizations = node.pairs else {
        throw decoder.mismatch(node, entryPath.appending("localizations"), expected: "a mapping of languages")
      }
      var seen: [String: SourceLocation] = [:]
      for localization in localizations {
        let place = entryPath.appending("localizations").appending(localization.key)
        let code = try decoder.tableLanguage(localization.key, at: localization.keyLocation, place, seen: &seen, known: &known)
        if let value = try decoder.catalogValue(localization.value, place) {
          tables[code, default: [:]][entry.key] = value
        }
      }
    }
    return StringCatalogMemo.Decoded(sourceLanguage: language, tables: tables)
  }

  /// The keys of a catalog's entry.
  private static let catalogEntryKeys = [
    "localizations", "comment", "extractionState", "shouldTranslate",
    // Xcode 26's: a comment it wrote itself, and whether the key gets a Swift symbol.
    "isCommentAutoGenerated", "commentGenerationVersion", "generatesSymbol",
  ]

  /// A translation, of any length: what a label draws is held to
  /// `maximumTextLength` characters as `text:` itself is (shaping a longer
  /// run costs more than its length), but a table's strings the job never
  /// draws are no matter of its (`JobSpec.argumentsProblem` checks the drawn).
  private func localizedString(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> String {
    try string(node, path, expected: "a string")
  }

  /// A text given as an argument: at most `maximumTextLength` characters, as `text:`.
  private func argumentText(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> String {
    let expected = "a string of at most \(JobDecoder.maximumTextLength) characters"
    let text = try string(node, path, expected: expected)
    guard text.unicodeScalars.count <= JobDecoder.maximumTextLength else { throw mismatch(node, path, expected: expected) }
    return text
  }

  /// `{ stringUnit: { value } }`, or `{ variations: { plural | device: {
  /// FORM: … } } }`, either with `substitutions`; nil (the key is missing
  /// in that language) for an empty value not marked `translated`
  /// (Xcode's untranslated entry, `state: new`), variations none of
  /// whose forms has a value, or plural variations (its own or a
  /// substitution's) whose `other` form has none.
  private func catalogValue(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> LocalizedString? {
    let fields = try fields(node, path, keys: ["stringUnit", "variations", "substitutions"])
    var value: LocalizedString?
    if let unit = fields["stringUnit"] {
      value = try unitValue(unit, fields.path("stringUnit")).map(LocalizedString.text)
    } else if let node = fields["variations"] {
      value = try variations(node, fields.path("variations")) { (form, path) throws(Diagnostic) in
        try catalogValue(form, path)
      }
    }
    guard let value else { return nil }
    guard let node = fields["substitutions"] else { return value }
    let path = fields.path("substitutions")
    guard let entries = node.pairs else { throw mismatch(node, path, expected: "a mapping of substitution names") }
    var substitutions: [String: LocalizedString.Substitution] = [:]
    for entry in entries {
      let entryPath = path.appending(entry.key)
      let entryFields = try self.fields(entry.value, entryPath, keys: ["argNum", "formatSpecifier", "variations"])
      let argument = try entryFields["argNum"].map { (node) throws(Diagnostic) in
        try integer(node, entryFields.path("argNum"), in: 1...JobDecoder.maximumFormatArguments)
      }
      let specifierNode = try required("formatSpecifier", in: entryFields, "a format specifier such as lld")
      let specifier = try string(specifierNode, entryFields.path("formatSpecifier"), expected: "a format specifier such as lld")
      guard ("%" + specifier).wholeMatch(of: StringFormat.specifier)?.output.8 != nil else {
        throw mismatch(specifierNode, entryFields.path("formatSpecifier"), expected: "a format specifier such as lld, d or .1f")
      }
      let formsNode = try required("variations", in: entryFields, "the substitution's plural forms")
      let forms = try variations(formsNode, entryFields.path("variations")) { (form, path) throws(Diagnostic) in
        let formFields = try self.fields(form, path, keys: ["stringUnit"])
        return try formFields["stringUnit"].flatMap { (unit) throws(Diagnostic) in
          try unitValue(unit, formFields.path("stringUnit")).map(LocalizedString.text)
        }
      }
      // A substitution not translated (no `other` value) leaves the whole string untranslated.
      guard let forms else { return nil }
      guard case .plural(let plural) = forms else {
        throw mismatch(formsNode, entryFields.path("variations"), expected: "{ plural: { one: …, other: … } }")
      }
      substitutions[entry.key] = LocalizedString.Substitution(
        argument: argument, specifier: specifier, forms: plural.mapValues { $0.asWritten() })
    }
    return .substituted(value, substitutions)
  }

  /// A `stringUnit`'s value, or nil: none, or empty and not `translated`.
  private func unitValue(_ unit: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> String? {
    let unitFields = try self.fields(unit, path, keys: ["state", "value"])
    guard let value = unitFields["value"] else { return nil }
    // JSON: a number or true is no string.
    if case .scalar(_, .plain) = value.content { throw mismatch(value, unitFields.path("value"), expected: "a string") }
    let text = try localizedString(value, unitFields.path("value"))
    if text.isEmpty, unitFields["state"]?.text != "translated" { return nil }
    return text
  }

  /// `{ plural: { CATEGORY: FORM, … } }` or `{ device: { DEVICE: FORM, … } }`,
  /// each form read by `form` (nil: no value, left out); nil when no form
  /// has one, or a plural `other` form has none.
  /// One kind at a time, as Xcode writes them (a device's form may vary by
  /// plural inside it): both side by side would leave one unread. A
  /// category or device Xcode does not write (`iPhone`) is an error, not
  /// a form no device takes.
  private func variations(
    _ node: YAMLNode, _ path: KeyPath, form: (YAMLNode, KeyPath) throws(Diagnostic) -> LocalizedString?
  ) throws(Diagnostic) -> LocalizedString? {
    let fields = try fields(node, path, expected: "{ plural: … } or { device: … }", keys: ["plural", "device"])
    if fields.pairs.count > 1 {
      let second = fields.pairs[1]
      throw Diagnostic(
        second.keyLocation,
        "\(fields.path(second.key)): a variation is by plural or by device, not both (\(fields.pairs[0].key) is given "
          + "beside it); vary each device's form by plural inside it, as Xcode writes it: "
          + "{ device: { iphone: { variations: { plural: … } } } }")
    }
    guard let (kind, formsNode) = fields.pairs.first.map({ ($0.key, $0.value) }) else { return nil }
    guard let entries = formsNode.pairs else { throw mismatch(formsNode, fields.path(kind), expected: "a mapping of forms") }
    var forms: [String: LocalizedString] = [:]
    for entry in entries {
      let (names, what) = kind == "plural" ? (JobDecoder.pluralCategories, "plural category") : (JobDecoder.devices, "device")
      if !names.contains(entry.key) {
        throw Diagnostic(
          entry.keyLocation,
          "\(fields.path(kind).appending(entry.key)): unknown \(what) '\(entry.key)' "
            + "(expected one of \(names.joined(separator: ", ")))")
      }
      if let value = try form(entry.value, fields.path(kind).appending(entry.key)) { forms[entry.key] = value }
    }
    // Every number falls in `other` when its own category has no form: Xcode requires it.
    if kind == "plural", !entries.contains(where: { $0.key == "other" }) {
      throw Diagnostic(
        formsNode.location,
        "\(fields.path(kind)): no 'other' form (has \(entries.map(\.key).joined(separator: ", "))): "
          + "'other' is the form of every number whose category has none, and a String Catalog needs it")
    }
    // A plural variation without an `other` value is Xcode's untranslated
    // entry however many forms are translated: `other` is the form of
    // every number whose category has none, and no other form's words
    // stand for it ("5 Foto" is no German for five).
    guard !forms.isEmpty, kind != "plural" || forms["other"] != nil else { return nil }
    return kind == "plural" ? .plural(forms) : .device(forms)
  }

  /// CLDR's plural categories, as a String Catalog names its forms.
  static let pluralCategories = ["zero", "one", "two", "few", "many", "other"]

  /// The device families a String Catalog's device variations name, as Xcode writes them.
  static let devices = ["iphone", "ipad", "ipod", "mac", "applewatch", "appletv", "applevision", "other"]

  /// Most arguments a string's `args:` (and a substitution's `argNum`) may give.
  static let maximumFormatArguments = 16

  /// `args: [3, 2.5, Anna]`: plain numbers (a whole one within 64 bits is
  /// an integer, for `%lld`), anything else text.
  func formatArguments(_ node: YAMLNode, _ path: KeyPath) throws(Diagnostic) -> [FormatArgument] {
    let expected = "a list of at most \(JobDecoder.maximumFormatArguments) numbers or texts, such as [3] or [Anna, 2]"
    guard let items = node.items, items.count <= JobDecoder.maximumFormatArguments else {
      throw mismatch(node, path, expected: expected)
    }
    var args: [FormatArgument] = []
    for (i, item) in items.enumerated() {
      let itemPath = path.appending(index: i)
      if let number = item.number {
        guard number.isFinite else { throw mismatch(item, itemPath, expected: "a finite number or a text") }
        // A whole number as written is read exactly (a Double has 53 bits).
        if case .scalar(let text, .plain) = item.content, text.wholeMatch(of: /[-+]?[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+/) != nil {
          let radix = text.hasPrefix("0x") ? 16 : text.hasPrefix("0o") ? 8 : 10
          let digits = radix == 10 ? (text.hasPrefix("+") ? String(text.dropFirst()) : text) : String(text.dropFirst(2))
          guard let integer = Int64(digits, radix: radix) else {
            throw mismatch(item, itemPath, expected: "a whole number from \(Int64.min) to \(Int64.max)")
          }
          args.append(.integer(integer))
        } else if number.rounded() == number, abs(number) < 0x1p53 {
          args.append(.integer(Int64(number)))
        } else {
          args.append(.real(number))
        }
      } else {
        args.append(.text(try argumentText(item, itemPath)))
      }
    }
    return args
  }

  /// Every `text: { key: … }` (a view's, a caption's) must be in some
  /// table; without locales the keys are resolved now, in the source
  /// language, whose strings must take their `args`. (With locales, each
  /// locale's job checks its own: `JobSpec.localeProblem`.)
  func resolveKeys(in spec: inout JobSpec) throws(Diagnostic) {
    let keys = spec.textKeys
    guard let localization = spec.localization else {
      if let key = keys.first {
        throw Diagnostic(key.location, "\(key.path): there are no strings: add strings: FILE.xcstrings or inline tables")
      }
      return
    }
    let place = localization.stringsPlace
    if let key = keys.first, localization.stringsFile == nil, localization.tables.isEmpty {
      throw Diagnostic(key.location, "\(key.path): there are no strings: add strings: FILE.xcstrings or inline tables")
    }
    for key in keys {
      guard localization.hasKey(key.key) else {
        throw Diagnostic(
          key.location,
          "\(key.path): no string \(YAMLNode.singleQuoted(key.key)) in \(place)\(Suggestion.hint(for: key.key, in: Array(Set(localization.tables.values.flatMap(\.keys))).sorted()))")
      }
    }
    if localization.locales.isEmpty {
      if let problem = spec.argumentsProblem(locale: localization.sourceLanguage) { throw problem }
      spec = spec.localized(to: localization.sourceLanguage, renamed: false)
    }
  }

  /// The bytes of the regular file at `path` (`RegularFile`; the first
  /// `maximumSize` + 1 at most: more is refused by `SourceText`), or why not.
  static func read(_ path: String, maximumSize: Int = SourceText.maximumSize) -> Result<[UInt8], RegularFile.Failure> {
    let fd: Int32
    switch RegularFile.open(path) {
    case .success(let file): fd = file.fd
    case .failure(let failure): return .failure(failure)
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count <= maximumSize {
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(RegularFile.Failure(code: errno))
      }
      if count == 0 { break }
      bytes += chunk.prefix(count)
    }
    return .success(bytes)
  }
}

/// `read(2)`, under a name of its own (inside `JobDecoder`, `read` is the
/// method above).
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
