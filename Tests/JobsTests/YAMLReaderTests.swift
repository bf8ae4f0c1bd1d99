// The YAML layer alone: node shapes, scalar styles and 1-based locations
// (with a BOM, CRLF line ends and multi-byte characters).

import Testing

@testable import Jobs

@Suite enum YAMLReaderTests {
  static func read(_ text: String) throws -> YAMLNode? {
    try YAMLReader.parse(try SourceText(bytes: Array(text.utf8), file: "t.cfg"))
  }

  static func at(_ line: Int, _ column: Int) -> Jobs.SourceLocation {
    SourceLocation(file: "t.cfg", line: line, column: column)
  }

  @Test static func shapesAndLocations() throws {
    let root = try #require(try read("a: 1\nb: [x, 'y']\nc:\n  - { d: \"\" }\n"))
    let pairs = try #require(root.pairs)
    #expect(pairs.map(\.key) == ["a", "b", "c"])
    #expect(pairs.map(\.keyLocation) == [at(1, 1), at(2, 1), at(3, 1)])
    #expect(root.location == at(1, 1))
    #expect(pairs[0].value.number == 1)
    let list = try #require(pairs[1].value.items)
    #expect(pairs[1].value.location == at(2, 4))
    #expect(list.map(\.location) == [at(2, 5), at(2, 8)])
    guard case .scalar("y", .quoted) = list[1].content else {
      Issue.record("expected a quoted scalar")
      return
    }
    let item = try #require(pairs[2].value.items?.first)
    #expect(pairs[2].value.location == at(4, 3))
    #expect(item.location == at(4, 5))
    let d = try #require(item.pairs?.first?.value)
    #expect(d.text == "")
    #expect(!d.isNull)
  }

  /// Reading is linear in list length: a list and a mapping as long as the
  /// 1 MiB cap allows read in well under a second each (they took minutes
  /// when every append copied the list out of the stack's enum).
  @Test static func longListsAndMappingsReadInLinearTime() throws {
    let list = "x:\n" + String(repeating: "- 1\n", count: 250_000)
    let mapping = "x:\n" + (0..<50_000).map { "  k\($0): 1\n" }.joined()
    for text in [list, mapping] {
      let start = ContinuousClock.now
      let root = try #require(try read(text))
      let elapsed = ContinuousClock.now - start
      let value = try #require(root.pairs?.first?.value)
      #expect((value.items?.count ?? value.pairs?.count) == (text == list ? 250_000 : 50_000))
      #expect(elapsed < .seconds(20), "\(elapsed)")
    }
  }

  @Test static func byteOrderMarkAndCRLF() throws {
    let text = "\u{FEFF}name: a\r\ncanvas:\r\n  fps: 30\r\n"
    let root = try #require(try read(text))
    #expect(root.pairs?.map(\.keyLocation) == [at(1, 1), at(2, 1)])
    #expect(root.pairs?[1].value.pairs?[0].value.location == at(3, 8))
  }

  /// A key is its text as written: `~` and `null` name no null (messages
  /// showed them as '').
  @Test static func nullKeysAreTheirText() throws {
    #expect(try read("~: 1\nnull: 2\n\"\": 3\n")?.pairs?.map(\.key) == ["~", "null", ""])
    let error = try #require(throws: Diagnostic.self) { try JobParser.parse("~: 1\n", file: "t.cfg") }
    #expect(error.location == at(1, 1))
    #expect(error.message.hasPrefix("unknown key '~' at the top level"), "\(error)")
  }

  /// Messages escape the characters a terminal shows as a space or as
  /// nothing (the CLI sweep): a key copied from a web page with a zero-width
  /// space said "unknown key 'canvas​'; did you mean 'canvas'?", the two
  /// alike on screen, and one with a no-break space "unknown key 'name '".
  @Test static func invisibleCharactersAreShownEscaped() throws {
    for (text, expected) in [
      ("canvas\u{200B}: {}\n", "t.cfg:1:1: error: unknown key 'canvas\\u{200b}' at the top level; did you mean 'canvas'?"),
      ("name\u{A0}: x\n", "t.cfg:1:1: error: unknown key 'name\\u{a0}' at the top level; did you mean 'name'?"),
    ] {
      let error = try #require(throws: Diagnostic.self) { try JobParser.parse(text, file: "t.cfg") }
      #expect(error.description == expected)
    }
    #expect(YAMLNode.quoted("a\u{FEFF}b\u{3000}c\u{AD}d\u{2060}") == "\"a\\u{feff}b\\u{3000}c\\u{ad}d\\u{2060}\"")
    // Letters and the joiners of emoji and scripts stay as they are.
    #expect(YAMLNode.quoted("é👩\u{200D}💻") == "\"é👩\u{200D}💻\"")
  }

  @Test static func columnsCountCharacters() throws {
    let root = try #require(try read("é: [ü, x]\n"))
    #expect(root.pairs?[0].value.items?.map(\.location) == [at(1, 5), at(1, 8)])
  }

  @Test static func nothingButComments() throws {
    #expect(try read("# a\n\n# b\n") == nil)
    #expect(try read("\u{FEFF}") == nil)
  }

  @Test static func nestingLimit() {
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    #expect(throws: Diagnostic(at(1, 33), "values are nested more than 32 levels deep")) {
      try read(deep)
    }
  }

  /// Inside `{ … }` or `[ … ]` a comma ends an unquoted value, so an
  /// unquoted call with commas is split into pieces: an error at its start
  /// says to quote it (`{ color: rgb(1,2,3) }` said "unknown key '2'").
  @Test static func aCallSplitAtItsCommas() throws {
    for (text, message) in [
      ("v: { color: rgb(1,2,3) }\n", (1, 13, "rgb(…) end it inside { … }; quote the whole value: \"rgb(…)\"")),
      ("v: [a, f(1, 2), b]\n", (1, 8, "f(…) end it inside [ … ]; quote the whole value: \"f(…)\"")),
      ("v:\n  - { x: 1, y: Sale (50 %, 2 for 1) }\n", (2, 16, "value end it inside { … }; quote the whole value: \"…\"")),
    ] {
      #expect(throws: Diagnostic(at(message.0, message.1), "invalid YAML: the commas inside this unquoted \(message.2)")) {
        try read(text)
      }
    }
    // Parentheses a comma does not split, or that nothing after the comma closes, are read as written.
    for text in ["v: { color: \"rgb(1,2,3)\", c: f(1) }", "v: rgb(1, 2, 3)", "v: { text: Sale (ends Monday, color: red }", "v: [f(1), g(2)]"] {
      #expect(try read(text) != nil, "\(text)")
    }
  }

  @Test static func byteOffsets() throws {
    let source = try SourceText(bytes: Array("ab\r\ncé\rx\nz".utf8), file: "t.cfg")
    #expect(source.location(ofByte: 0) == at(1, 1))
    #expect(source.location(ofByte: 2) == at(1, 3))
    #expect(source.location(ofByte: 4) == at(2, 1))
    #expect(source.location(ofByte: 7) == at(2, 3))
    #expect(source.location(ofByte: 8) == at(3, 1))
    #expect(source.location(ofByte: 10) == at(4, 1))
    #expect(source.character(atLine: 2, column: 2) == "é")
    #expect(source.character(atLine: 3, column: 1) == "x")
    #expect(source.character(atLine: 5, column: 1) == nil)
  }

  @Test static func coreSchemaNumbers() {
    let numbers: [(String, Double?)] = [
      ("60", 60), ("-1", -1), ("+2.5", 2.5), (".5", 0.5), ("1.", 1), ("1e3", 1000), ("2E-1", 0.2),
      ("0x10", 16), ("0x1e", 30), ("0xFF", 255), ("0o17", 15), ("0x10000000000000001", 0x1p64),
      ("0X10", nil), ("-0x10", nil), ("+0o7", nil), ("0x", nil), ("0o8", nil), ("0xG", nil), ("0b1", nil), ("1_000", nil), ("nan", nil), ("inf", nil), ("", nil), ("-", nil), ("1e", nil), ("six", nil),
    ]
    for (text, value) in numbers {
      #expect(YAMLNode.number(fromPlain: text) == value, "\(text)")
    }
    #expect(YAMLNode.number(fromPlain: "-.inf") == -.infinity)
    #expect(YAMLNode.number(fromPlain: ".NaN")?.isNaN == true)
  }

  @Test static func summaries() {
    let here = at(1, 1)
    #expect(YAMLNode(.scalar("60", .plain), at: here).summary == "60")
    #expect(YAMLNode(.scalar("60", .quoted), at: here).summary == "\"60\"")
    #expect(YAMLNode(.scalar("", .plain), at: here).summary == "nothing")
    #expect(YAMLNode(.scalar("~", .plain), at: here).summary == "~")
    #expect(YAMLNode(.scalar("say \"hi\"\n", .quoted), at: here).summary == "\"say \\\"hi\\\"\\n\"")
    #expect(YAMLNode(.scalar(String(repeating: "a", count: 50), .plain), at: here).summary
      == "\"" + String(repeating: "a", count: 40) + "…\"")
    #expect(YAMLNode(.mapping([]), at: here).summary == "an empty mapping")
    let item = YAMLNode(.scalar("1", .plain), at: here)
    #expect(YAMLNode(.mapping([YAMLNode.Pair(key: "a", keyLocation: here, value: item)]), at: here).summary == "a mapping")
    #expect(YAMLNode(.sequence([]), at: here).summary == "an empty list")
    #expect(YAMLNode(.sequence([item]), at: here).summary == "a list of 1 item")
    #expect(YAMLNode(.sequence([item, item, item]), at: here).summary == "a list of 3 items")
  }
}

extension YAMLReaderTests {
  /// A String Catalog may have 64 MiB; written as `[1,1,1,…` that is 33
  /// million values, so their number, keys counted, is bounded too (`maximumCatalogNodes`).
  @Test static func tooManyValues() throws {
    let source = try SourceText(bytes: Array("{\"a\": [1, 2, 3]}".utf8), file: "t.xcstrings", what: "the String Catalog")
    #expect(throws: Diagnostic(
      SourceLocation(file: "t.xcstrings", line: 1, column: 11),
      "the String Catalog holds more than 4 keys and values; is it the right file?")) {
      try YAMLReader.parse(source, json: true, maximumNodes: 4)
    }
    #expect(try YAMLReader.parse(source, json: true, maximumNodes: 6) != nil)
    #expect(YAMLReader.maximumCatalogNodes == 4_000_000)
  }

  @Test static func tooLarge() {
    let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: SourceText.maximumSize + 1)
    #expect(throws: Diagnostic(at(1, 1), "the job file is larger than 1 MiB; is it a job file?")) {
      try SourceText(bytes: bytes, file: "t.cfg")
    }
  }
}

/// U+0085, U+2028 and U+2029 are ordinary characters, as in YAML 1.2, JSON
/// and editors (libyaml, YAML 1.1, broke lines at them): places after one
/// are the editor's line and column, and text keeps them.
extension YAMLReaderTests {
  @Test static func separatorsBreakNoLine() throws {
    // The sweep's: a bad value on line 6 was reported at 7:11.
    let label = """
      name: ls
      canvas: { size: 200x300, scale: 1, fps: 10 }
      screens:
        a: { background: "#FFFFFF", views: [ { frame: [0, 0, 200, 40], text: "Hi\u{2028}there" } ] }
      timeline:
        - hold: -1

      """
    #expect(
      throws: Diagnostic(at(6, 11), "timeline[0].hold: expected a number of seconds from 0 to 600, got -1")
    ) { try JobParser.parse(label, file: "t.cfg") }
    // A NEL in a comment is the comment's: it ended it, and `screen` was read as YAML.
    #expect(throws: Diagnostic(at(3, 16), "canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 500")) {
      try JobParser.parse("# Loading\u{85} screen\nname: nel\ncanvas: { fps: 500 }\n", file: "t.cfg")
    }
    // Later on the same line: columns count each as one character.
    let root = try #require(try read("a: { t: \"x\u{2029}\u{2029}y\", u: 'p\u{85}q', v: r\u{2028}s }\n# z\u{2028}: 1\n"))
    let pairs = try #require(root.pairs?[0].value.pairs)
    #expect(pairs.map(\.keyLocation) == [at(1, 6), at(1, 17), at(1, 27)])
    #expect(pairs.map(\.value.text) == ["x\u{2029}\u{2029}y", "p\u{85}q", "r\u{2028}s"])
    #expect(root.pairs?.count == 1)
  }

  /// The text a label draws keeps them: `"go<NEL>od"` was read as "go od".
  @Test static func separatorsStayInText() throws {
    let text = "a: \"go\u{85}od\"\nb: |\n  one\u{2028}two\n\u{2029}c: plain\u{85}\nd: [\"\\uE000\\U0000E001\", \u{E002}]\n"
    let root = try #require(try read(text))
    #expect(root.pairs?.map(\.key) == ["a", "b", "\u{2029}c", "d"])
    #expect(root.pairs?.map(\.keyLocation) == [at(1, 1), at(2, 1), at(4, 1), at(5, 1)])
    #expect(root.pairs?[0].value.text == "go\u{85}od")
    #expect(root.pairs?[1].value.text == "one\u{2028}two\n")
    #expect(root.pairs?[2].value.text == "plain\u{85}")
    // Private-use characters of the file, held or escaped, are not taken for stand-ins.
    #expect(root.pairs?[3].value.items?.map(\.text) == ["\u{E000}\u{E001}", "\u{E002}"])
  }

  /// A file that holds or names every private-use character leaves no
  /// stand-in: its first separator is an error that says what to write.
  @Test static func separatorWithoutStandIn() {
    let area = (0xE000...0xF8FF).map { String(Unicode.Scalar($0)!) }.joined()
    #expect(
      throws: Diagnostic(
        at(2, 6),
        "U+2028 LINE SEPARATOR is a line break to the YAML reader, and this file leaves no private-use character to read it "
          + "as an ordinary one; write \\u2028 in a double-quoted string instead")
    ) { try read("# \(area)\na: \"x\u{2028}\"\n") }
  }
}

/// A key of more than 1024 characters is more than libyaml reads as
/// `KEY: VALUE`: an inline strings table's said "could not find expected
/// ':'" at the place it gave up. The message says so at the key, and the
/// explicit key it suggests is read.
extension YAMLReaderTests {
  @Test static func longKeys() throws {
    let key = String(repeating: "L", count: 1100)
    #expect(
      throws: Diagnostic(
        at(2, 3),
        "invalid YAML: this key is longer than 1024 characters, the most YAML reads in KEY: VALUE; "
          + "write it as an explicit key: '? KEY' on one line and ': VALUE' on the next")
    ) { try read("en:\n  \"\(key)\": x\n") }
    #expect(
      throws: Diagnostic(
        at(3, 3),
        "invalid YAML: this key is longer than 1024 characters, the most YAML reads in KEY: VALUE; "
          + "write it as an explicit key: '? KEY' on one line and ': VALUE' on the next")
    ) { try read("en:\n  a: b\n  \(key): x\n") }
    #expect(try read("en:\n  ? \"\(key)\"\n  : x\n")?.pairs?[0].value.pairs?.map(\.key) == [key])
    // U+2028 is an ordinary character: a plain key's first.
    for (written, column) in [("\"\(key)\"", 14), (key, 13)] {
      #expect(
        throws: Diagnostic(
          at(1, column),
          "invalid YAML: this key is longer than 1024 characters, the most YAML reads in { KEY: VALUE }; "
            + "write it as an explicit key: { ? KEY : VALUE }")
      ) { try read("en: { a: b, \u{2028}\(written): x }\n") }
    }
    #expect(try read("en: { a: b, ? \(key) : x }\n")?.pairs?[0].value.pairs?.map(\.key) == ["a", key])
  }
}

/// A minified catalog is one line, and each `\uD83D\uDE00` pair on it (as
/// Python's `json.dump` writes an emoji) is rewritten: every node's column
/// is still the file's, and finding it does not add up every rewrite left
/// of it (a 29 MB catalog of emoji took four minutes to read so).
extension YAMLReaderTests {
  @Test static func oneLineOfManyRewritesReadsInLinearTime() throws {
    let count = 300_000
    let item = "\"\\uD83D\\uDE00\""
    let text = "{\"a\": [" + Array(repeating: item, count: count).joined(separator: ",") + "]}"
    let source = try SourceText(
      bytes: Array(text.utf8), file: "t.xcstrings", what: "the String Catalog", maximumSize: SourceText.maximumCatalogSize)
    let start = ContinuousClock.now
    let root = try #require(try YAMLReader.parse(source, json: true, maximumNodes: YAMLReader.maximumCatalogNodes))
    let elapsed = ContinuousClock.now - start
    let items = try #require(root.pairs?.first?.value.items)
    #expect(items.count == count)
    #expect(items.last?.text == "\u{1F600}")
    // Item i starts at column 8 + i × 15 (14 characters and a comma).
    #expect(items.last?.location == SourceLocation(file: "t.xcstrings", line: 1, column: 8 + (count - 1) * 15))
    #expect(items[1].location == SourceLocation(file: "t.xcstrings", line: 1, column: 23))
    #expect(elapsed < .seconds(10), "\(elapsed)")
  }
}

/// A duplicate key is found however many keys come before it: a mapping's
/// first few are looked for among its pairs, more in a dictionary.
extension YAMLReaderTests {
  @Test static func duplicateKeysAmongFewAndMany() throws {
    for count in [2, 7, 8, 9, 30] {
      let keys = (0..<count).map { "k\($0): \($0)\n" }.joined()
      let text = "m:\n" + keys.split(separator: "\n").map { "  \($0)\n" }.joined() + "  k1: again\n"
      #expect(throws: Diagnostic(at(count + 2, 3), "duplicate key 'k1' in m (first at line 3, column 3)")) {
        try read(text)
      }
      let root = try #require(try read("m:\n" + keys.split(separator: "\n").map { "  \($0)\n" }.joined()))
      let pairs = try #require(root.pairs?.first?.value.pairs)
      #expect(pairs.map(\.key) == (0..<count).map { "k\($0)" })
    }
  }

  /// A path is shown as before however it is built: keys, indices, a long
  /// key quoted and shortened, the document by its name.
  @Test static func keyPathsReadAsWritten() {
    let path = KeyPath.root.appending("screens").appending("home").appending("views").appending(index: 2).appending("frame")
    #expect(path.description == "screens.home.views[2].frame")
    #expect(KeyPath.root.appending(index: 0).appending("a").description == "[0].a")
    #expect(KeyPath.root.isRoot && KeyPath.root.subject == "the job file" && KeyPath.catalog.subject == "the String Catalog")
    #expect(KeyPath.catalog.appending("strings").subject == "strings")
    #expect(KeyPath.root.appending("canvas").keyPlace == "in canvas" && KeyPath.root.keyPlace == "at the top level")
    let long = String(repeating: "word ", count: 20)
    let shown = KeyPath.catalog.appending("strings").appending(long).appending("localizations").description
    #expect(shown == "strings.\(YAMLNode.quoted(long)).localizations")
    #expect(KeyPath.root.appending("a.b").appending("x\ny").description == "a.b.\(YAMLNode.quoted("x\ny"))")
  }
}
