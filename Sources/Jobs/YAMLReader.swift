// YAMLReader: libyaml's event stream → one `YAMLNode` tree.
//
// libyaml does the YAML (scanner, parser, every syntax error with its
// line and column); this file only stacks its events into nodes and enforces
// what a job file may use. A job file is one document of plain mappings,
// sequences and scalars, so the reader rejects, at the offending place:
// a second document, anchors, aliases and merge keys (no expansion bombs, no
// action at a distance), explicit tags, non-scalar mapping keys, duplicate keys,
// nesting deeper than `maximumDepth`, and an unquoted call a comma split inside
// `{ … }` or `[ … ]` (`{ color: rgb(1,2,3) }`). The node stack is explicit, so a hostile
// `[[[[…` cannot overflow the call stack before the depth check. A String
// Catalog may hold `maximumCatalogNodes` keys and values: its 64 MiB written as
// `[1,1,1,…` would be 33 million nodes, gigabytes held.
//
// libyaml marks are 0-based and count characters; `SourceLocation` is 1-based.
// Lines are the file's, as editors and `SourceText` count them: libyaml
// reads a stand-in for each U+0085, U+2028 and U+2029 (`LineSeparators`), so
// it breaks lines only where the file does, and scalars get them back.

import CYAML

enum YAMLReader {
  /// Deepest nesting accepted; job files need 5.
  static let maximumDepth = 32

  /// Most keys and values (scalars, lists and mappings) a String Catalog may hold:
  /// Xcode's layout writes about one per 30 bytes, so 2 million in a
  /// catalog of 64 MiB (`SourceText.maximumCatalogSize`).
  static let maximumCatalogNodes = 4_000_000

  /// The document in `source`, or nil when it holds none (only blanks or
  /// comments). With `json`, the document must also be written as JSON (a
  /// String Catalog): flow collections, double-quoted keys and strings on
  /// one line, plain scalars only as JSON's numbers, `true`, `false` and
  /// `null`, no trailing commas; anything else is an error at its place.
  /// A document of more than `maximumNodes` keys and values is an error at
  /// the first past them.
  static func parse(_ source: SourceText, json: Bool = false, maximumNodes: Int = .max) throws(Diagnostic) -> YAMLNode? {
    // libyaml asserts on a null input pointer, which an empty array may have.
    if source.bytes.isEmpty { return nil }
    if json, let problem = jsonProblem(in: source.bytes) {
      throw Diagnostic(source.location(ofByte: problem.offset), "invalid JSON: \(problem.message)")
    }
    let original = source
    var source = source
    let separators: LineSeparators
    (source.bytes, separators) = try LineSeparators.replacing(in: source)
    var joins = Joins()
    if json { (source.bytes, joins) = rewritingJSON(source.bytes) }
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    defer {
      parser.deallocate()
      event.deallocate()
    }
    guard yaml_parser_initialize(parser) != 0 else {
      throw Diagnostic(SourceLocation(file: source.file, line: 1, column: 1), "cannot start the YAML parser")
    }
    defer { yaml_parser_delete(parser) }

    let result: Result<YAMLNode?, Diagnostic> = source.bytes.withUnsafeBufferPointer { buffer in
      yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
      yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
      var builder = Builder(file: source.file, json: json, joins: joins, separators: separators, source: source)
      builder.maximumNodes = maximumNodes
      builder.what = source.what
      while true {
        guard yaml_parser_parse(parser, event) != 0 else {
          return .failure(syntaxError(parser.pointee, in: original, json: json, joins: joins, separators: separators))
        }
        defer { yaml_event_delete(event) }
        do throws(Diagnostic) {
          if try builder.add(event.pointee) { return .success(builder.document) }
        } catch {
          return .failure(error)
        }
      }
    }
    return try result.get()
  }

  /// What JSON forbids and libyaml, reading JSON as the YAML it is, takes
  /// or words as YAML, found in the bytes: a raw line break (LF or CR)
  /// inside a string (libyaml folds it; U+2028 and U+0085, which JSON's
  /// strings may hold, are ordinary characters: `LineSeparators`), a comma
  /// before a closing bracket, a `#` comment and text after the bracket
  /// that closes the value (libyaml's "did not find expected <document
  /// start>"). Its byte offset and message, or nil.
  static func jsonProblem(in bytes: [UInt8]) -> (offset: Int, message: String)? {
    var inString = false, escaped = false
    var lastComma: Int?
    // Brackets open outside strings; whether the file starts with one (not
    // YAML's `key: value`), and the one that closed it, once it has.
    var depth = 0
    var bracketed: Bool?
    var closer: UInt8?
    let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    for (offset, byte) in bytes.enumerated() {
      if bracketed == nil, offset >= bom, ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
        bracketed = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
      }
      if inString {
        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
          inString = false
        } else if byte == 0x0A || byte == 0x0D {
          return (offset, "a string holds no line break (write \\n)")
        }
        continue
      }
      if let closer, ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
        return (offset, "text after the '\(Character(Unicode.Scalar(closer)))' that ends the catalog (JSON holds one value)")
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        lastComma = nil
      case UInt8(ascii: ","): lastComma = offset
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        lastComma = nil
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if let comma = lastComma { return (comma, "a comma before '\(Character(Unicode.Scalar(byte)))' (JSON has no trailing commas)") }
        depth -= 1
        if depth == 0, bracketed == true { closer = byte }
      case UInt8(ascii: "#"): return (offset, "# starts no comment in JSON")
      case 0x20, 0x09, 0x0A, 0x0D: break
      default: lastComma = nil
      }
    }
    return nil
  }

  /// Where `rewritingJSON` made a line shorter or longer, so that places
  /// libyaml reports after it are moved back to the file's own.
  ///
  /// A minified catalog is one line, which may hold millions of rewrites
  /// (`\\uD83D\\uDE00` pairs): each line keeps its rewrites in the order
  /// written, left to right, with the shift of all of them so far, so a
  /// place is found by binary search, not by adding up every rewrite before
  /// it for each of the millions of nodes.
  struct Joins {
    /// By 0-based line: each rewrite's 0-based column in the rewritten text,
    /// increasing, and by how many characters places from there to the next
    /// rewrite move to the file's (this rewrite's and every earlier one's).
    private(set) var byLine: [Int: [(column: Int, shift: Int)]] = [:]

    /// Notes a rewrite at `column` of `line`, right of every earlier one on
    /// the line, after which places move by `shift` characters.
    mutating func add(line: Int, column: Int, shift: Int) {
      let before = byLine[line]?.last?.shift ?? 0
      byLine[line, default: []].append((column, before + shift))
    }

    /// The place in the file of a libyaml `mark` in the rewritten text.
    func location(_ mark: yaml_mark_t, file: String) -> SourceLocation {
      let line = Int(mark.line), column = Int(mark.column)
      var shift = 0
      if let rewrites = byLine[line] {
        // The first rewrite right of `column`; the one before it holds the shift.
        var low = 0, high = rewrites.count
        while low < high {
          let middle = (low + high) / 2
          if rewrites[middle].column <= column { low = middle + 1 } else { high = middle }
        }
        if low > 0 { shift = rewrites[low - 1].shift }
      }
      return SourceLocation(file: file, line: line + 1, column: column + shift + 1)
    }
  }

  /// The longest key, in bytes from its opening quote to its colon, that
  /// `rewritingJSON` leaves as it is: libyaml gives up a key written
  /// `"key": value` (a simple key) 1024 characters after it starts.
  static let longestSimpleKey = 512

  /// JSON rewritten where libyaml would misread it, and where each rewrite
  /// moved the places after it (`Joins`); only inside strings and keys:
  /// - `\\uD83D\\uDE00` (a character beyond the BMP as a UTF-16 surrogate
  ///   pair, as Python's `json.dump` writes emoji) becomes YAML's one escape
  ///   of it, `\\U0001F600`: libyaml takes no surrogate escape.
  /// - A key longer than `longestSimpleKey` bytes (or with a line break
  ///   before its colon) gets YAML's explicit-key indicator, `? "key": value`:
  ///   libyaml reads a simple key of more than 1024 characters as a value
  ///   without a key, and a String Catalog's keys are its source texts.
  static func rewritingJSON(_ bytes: [UInt8]) -> ([UInt8], Joins) {
    /// The four hex digits at `i` as a number, or nil.
    func hex(_ i: Int) -> UInt32? {
      guard i + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for byte in bytes[i..<(i + 4)] {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    /// Whether the string opening at `start` is a key to write explicitly.
    func isLongKey(at start: Int) -> Bool {
      var i = start + 1
      while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
      i += 1
      var lineBreak = false
      while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
        lineBreak = lineBreak || bytes[i] == 0x0A || bytes[i] == 0x0D
        i += 1
      }
      return i < bytes.count && bytes[i] == UInt8(ascii: ":") && (i - start > longestSimpleKey || lineBreak)
    }
    var joins = Joins()
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var inString = false
    var i = 0
    // The output's line and column, as libyaml counts them (a CR LF is one
    // break; a column is a character: UTF-8's continuation bytes add none).
    var line = 0, column = 0
    func append(_ byte: UInt8) {
      out.append(byte)
      if byte & 0xC0 != 0x80 { column += 1 }
    }
    while i < bytes.count {
      let byte = bytes[i]
      if inString, byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
        if bytes[i + 1] == UInt8(ascii: "u"), let high = hex(i + 2), (0xD800...0xDBFF).contains(high),
          i + 12 <= bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
          let low = hex(i + 8), (0xDC00...0xDFFF).contains(low)
        {
          let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
          append(UInt8(ascii: "\\"))
          append(UInt8(ascii: "U"))
          for shift in stride(from: 28, through: 0, by: -4) {
            let digit = UInt8(scalar >> UInt32(shift) & 0xF)
            append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
          }
          i += 12
          joins.add(line: line, column: column, shift: 2)
        } else {
          append(byte)
          append(bytes[i + 1])
          i += 2
        }
        continue
      }
      if byte == UInt8(ascii: "\"") {
        if !inString, isLongKey(at: i) {
          append(UInt8(ascii: "?"))
          append(UInt8(ascii: " "))
          joins.add(line: line, column: column, shift: -2)
        }
        inString.toggle()
      }
      append(byte)
      i += 1
      if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (i == bytes.count || bytes[i] != UInt8(ascii: "\n"))) {
        line += 1
        column = 0
      }
    }
    return (out, joins)
  }
  /// libyaml's own message, at the place it reports.
  private static func syntaxError(
    _ parser: yaml_parser_t, in source: SourceText, json: Bool, joins: Joins, separators: LineSeparators
  ) -> Diagnostic {
    let language = json ? "JSON" : "YAML"
    let file = source.file
    func place(_ mark: yaml_mark_t) -> SourceLocation { joins.location(mark, file: file) }
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return Diagnostic(SourceLocation(file: file, line: 1, column: 1), "out of memory while reading YAML")
    case YAML_READER_ERROR:
      let offset = separators.originalOffset(Int(parser.problem_offset))
      return Diagnostic(source.location(ofByte: offset), "invalid \(language): \(problem)")
    default:
      let location = place(parser.problem_mark)
      var message = "invalid \(language): \(problem)"
      // `KEY: VALUE` with a key of more than 1024 characters: libyaml gives up
      // looking for its colon there, and so reads the key as a value and its
      // colon as out of place (JSON's long keys are written explicitly: `rewritingJSON`).
      let longKey: SourceLocation? =
        switch problem {
        case "could not find expected ':'" where parser.context_mark.line == parser.problem_mark.line
          && parser.problem_mark.index - parser.context_mark.index > 1024:
          place(parser.context_mark)
        case "mapping values are not allowed in this context", "did not find expected ',' or '}'":
          source.key(endingBefore: location).flatMap { location.column - $0.column > 1024 ? $0 : nil }
        default: nil
        }
      if let longKey {
        let explicit =
          problem.hasPrefix("did not find")
          ? "{ KEY: VALUE }; write it as an explicit key: { ? KEY : VALUE }"
          : "KEY: VALUE; write it as an explicit key: '? KEY' on one line and ': VALUE' on the next"
        return Diagnostic(longKey, "invalid \(language): this key is longer than 1024 characters, the most YAML reads in \(explicit)")
      }
      // `curve: spring(damping: 0.55, velocity: 0)` unquoted: YAML ends the
      // plain value at the first `: `, and reads the rest as a key's value.
      if !json, problem == "mapping values are not allowed in this context" || problem == "did not find expected ',' or '}'",
        let call = source.unclosedCall(endingBefore: location)
      {
        return Diagnostic(
          call.start,
          "invalid YAML: the ': ' inside this unquoted \(call.name)(…) reads as a key's colon; "
            + "quote the whole value: \"\(call.name)(…)\"")
      }
      // `canvas:{ size: 60x80, scale: 1 }`: a block key glued to the bracket
      // that opens its value; YAML reads `canvas:{ size` as one key, and the
      // next `: ` on the line as a value out of place.
      if !json, problem == "mapping values are not allowed in this context", let glued = source.gluedBracketKey(before: location),
        let next = source.character(atLine: glued.colon.line, column: glued.colon.column + 1)
      {
        return Diagnostic(
          glued.colon,
          "invalid YAML: this ':' has no space after it ('\(next)' follows it), so it ends no key; write '\(glued.key): \(next)…'")
      }
      // `{ duration:}` or `{ duration:, delay: 1 }`: a key whose value is
      // missing, as YAML 1.2 reads it; libyaml reads the colon as part of the
      // key, which the bracket or comma then cuts. Said just after the
      // colon, as an empty value after `duration: ` is.
      if !json, problem == "found unexpected ':'", source.character(atLine: location.line, column: location.column) == ":",
        let next = source.character(atLine: location.line, column: location.column + 1), [",", "}", "]"].contains(next)
      {
        return Diagnostic(
          SourceLocation(file: file, line: location.line, column: location.column + 1),
          "invalid YAML: the value after this ':' is missing ('\(next)' follows it); write the value after a space: 'KEY: VALUE'")
      }
      // `{ progress:[0, 1] }` or `gesture:{ … }`: a key glued to the bracket
      // that opens its value; libyaml reads the colon as part of a plain
      // key, which the bracket cannot follow.
      if !json, problem == "found unexpected ':'", source.character(atLine: location.line, column: location.column) == ":",
        let next = source.character(atLine: location.line, column: location.column + 1), ["[", "{"].contains(next)
      {
        return Diagnostic(
          location,
          "invalid YAML: this ':' has no space after it ('\(next)' follows it), so it ends no key; write 'KEY: \(next)…'")
      }
      // `background: #FFFFFF }`: the comment the # starts hid the closing bracket.
      // libyaml names the bracket that opened the collection ("while parsing a
      // flow mapping"), or, for a value missing at the end of the file ("while
      // parsing a flow node"), the end itself: the bracket is then the latest
      // start of a collection still open (`marks`).
      let open = parser.marks.top.flatMap { top in top > parser.marks.start ? (top - 1).pointee : nil }
      let context = parser.context.map { String(cString: $0) }
      let opened = context == "while parsing a flow node" ? open ?? parser.context_mark : parser.context_mark
      if !json, let context, context.contains("flow"),
        let hash = source.comment(
          fromLine: place(opened).line, column: place(opened).column, toLine: location.line, column: location.column)
      {
        // Inside text (`text: Price #1`), the text is what to quote; at a value's start, a colour.
        let advice = source.value(around: hash).map { "quote the value it is in: \"\($0)\"" } ?? "quote a hex colour: \"#RRGGBB\""
        return Diagnostic(
          hash,
          "invalid YAML: this # starts a comment, which hides the rest of the line and the bracket that closes "
            + "the { … } or [ … ] it is in; \(advice)")
      }
      // `%YAML 1.3`: libyaml reads 1.1 and 1.2 documents only, and says
      // "found incompatible YAML document" at the directive's `%`.
      if !json, problem == "found incompatible YAML document", let version = yamlVersion(at: location, in: source) {
        return Diagnostic(
          version.location,
          "invalid YAML: this file asks for YAML \(version.text), which transvid does not read (it reads 1.2 and 1.1): "
            + "write '%YAML 1.2', or leave the line out")
      }
      // A no-break space alone on a line or before its text (`\u{a0}` above a
      // key), or after a key's colon (`scale:\u{a0}1`): YAML reads a key
      // without its ':' there, and libyaml says so at the line after it.
      if !json, problem == "could not find expected ':'", context == "while scanning a simple key",
        let blank = lookalikeBlank(inKeyFrom: place(parser.context_mark), in: source)
      {
        return Diagnostic(blank.location, blank.message)
      }
      // `text: 'It's here'`: the apostrophe ends the quoted value, and
      // libyaml names what it expected after it, at the text left over.
      if !json, let quote = source.closingQuote(before: location) {
        let inside =
          quote == "'"
          ? "inside single quotes an apostrophe is written twice ('It''s here'), or quote the value in double quotes"
          : "inside double quotes a quote is written \\\" (\"Say \\\"hi\\\"\"), or quote the value in single quotes"
        return Diagnostic(
          location, "invalid YAML: this text is left over after the quoted value the \(quote) before it ends; \(inside)")
      }
      // A line that starts with a byte-order mark, which shows as nothing
      // and which libyaml skips, the line then one column further in: the
      // line of the error or one since the block it was reading began.
      let blockStart = context == nil ? 1 : place(parser.context_mark).line
      if !json, let line = source.lineStartingWithBOM(from: blockStart, through: location.line) {
        return Diagnostic(
          SourceLocation(file: file, line: line, column: 1),
          "invalid YAML: this line starts with a byte-order mark (U+FEFF), which shows as nothing; YAML skips it there "
            + "and reads the line as indented one column further in: remove it")
      }
      // A tab in a line's indentation, where YAML reads spaces only: libyaml
      // names the rule broken and the value before the line, not what to write.
      if !json, problem == "found a tab character that violates indentation"
        || problem == "found a tab character where an indentation space is expected"
      {
        return Diagnostic(location, "invalid YAML: " + tabIndentation(atLine: location.line, in: source, context: context))
      }
      if let context {
        let at = place(parser.context_mark)
        message += at == location ? " (\(context))" : " (\(context) at line \(at.line), column \(at.column))"
      }
      if source.character(atLine: location.line, column: location.column) == "\t", !problem.contains("tab") {
        message += "; indent with spaces, not tabs"
      }
      return Diagnostic(location, message)
    }
  }

  /// The version a `%YAML` directive starting at `directive` names, and
  /// where it is, or nil when no `%YAML` starts there.
  private static func yamlVersion(at directive: SourceLocation, in source: SourceText) -> (text: String, location: SourceLocation)? {
    let line = source.scalars(ofLine: directive.line)
    let name: [Unicode.Scalar] = ["%", "Y", "A", "M", "L"]
    var i = directive.column - 1
    guard i >= 0, i + name.count <= line.count, Array(line[i..<(i + name.count)]) == name else { return nil }
    i += name.count
    while i < line.count, line[i] == " " || line[i] == "\t" { i += 1 }
    var end = i
    while end < line.count, line[end] != " ", line[end] != "\t", line[end] != "#" { end += 1 }
    guard end > i else { return nil }
    var text = ""
    text.unicodeScalars.append(contentsOf: line[i..<end])
    return (text, SourceLocation(file: directive.file, line: directive.line, column: i + 1))
  }

  /// Where a blank YAML reads as text (`LookalikeBlank`) makes the text
  /// libyaml read as a key from `start` on a key without its colon, and
  /// what to write, or nil: the blank itself where the key starts with it,
  /// else a colon on the line after `start` that it follows.
  private static func lookalikeBlank(
    inKeyFrom start: SourceLocation, in source: SourceText
  ) -> (location: SourceLocation, message: String)? {
    let line = source.scalars(ofLine: start.line)
    let i = start.column - 1
    guard i >= 0, i < line.count else { return nil }
    if LookalikeBlank.contains(line[i]) {
      return (
        start,
        "invalid YAML: YAML reads this \(LookalikeBlank.name(of: line[i])) as text, not as a space, and so as a key "
          + "missing its ':'; indent with spaces only, or remove it"
      )
    }
    guard let colon = (i..<(line.count - 1)).first(where: { line[$0] == ":" && LookalikeBlank.contains(line[$0 + 1]) }) else {
      return nil
    }
    return (
      SourceLocation(file: start.file, line: start.line, column: colon + 1),
      "invalid YAML: this ':' is followed by a \(LookalikeBlank.name(of: line[colon + 1])), which YAML does not read as a space, "
        + "so it ends no key; write a space after the ':'"
    )
  }

  /// What to write for a tab libyaml found in the indentation of 1-based
  /// `line`: YAML indents with spaces only, and after a plain value
  /// (`context` "while scanning a plain scalar") it takes the blanks that
  /// start even a blank line or a comment line as indentation.
  private static func tabIndentation(atLine line: Int, in source: SourceText, context: String?) -> String {
    let text = source.scalars(ofLine: line)
    let first = text.first { $0 != " " && $0 != "\t" }
    let spaces = "YAML indents with spaces only"
    if first == nil { return "this blank line holds a tab, which YAML reads as indentation here; \(spaces): remove the tab" }
    if context == "while scanning a block scalar" {
      return "this line of a block scalar (| or >) is indented with a tab; \(spaces): write spaces in its place "
        + "(a tab after the indentation's spaces is kept as text)"
    }
    if first == "#" { return "this comment line is indented with a tab; \(spaces): write spaces in its place" }
    return "this line is indented with a tab; \(spaces): write spaces in its place"
  }

  /// Stacks events into nodes.
  private struct Builder {
    /// A container being filled. Nodes are appended to the frame in place
    /// (`stack[last].items.append`), never to a copy taken out of it, so
    /// reading a list of n items costs O(n), not O(n²).
    private struct Frame {
      enum Kind { case sequence, mapping }
      let kind: Kind
      let location: SourceLocation
      let path: KeyPath
      /// Whether it is written in flow style, `{ … }` or `[ … ]`, where a comma ends a plain value.
      var flow = false
      /// A plain value read in it with a `(` not closed in it (`rgb(1`), where it starts.
      var unclosed: (location: SourceLocation, text: String)?
      /// A sequence's items.
      var items: [YAMLNode] = []
      /// A mapping's pairs.
      var pairs: [YAMLNode.Pair] = []
      /// A mapping's key read, waiting for its value.
      var key: (text: String, location: SourceLocation)?
      /// Where that key's text ends (after its closing quote, if quoted).
      var keyEnd: SourceLocation?
      /// A mapping's keys seen so far, with where they were first seen,
      /// once it has more than `fewKeys` (`note(key:at:)`).
      var seen: [String: SourceLocation] = [:]

      /// How many keys a mapping has before they are kept in `seen`: a
      /// String Catalog has millions of mappings of one to four keys, for
      /// which a look along the pairs costs less than a dictionary.
      static let fewKeys = 8

      /// Where `key` was first given in this mapping, or nil (it is new, and
      /// noted), for a key that comes after every pair.
      mutating func note(key: String, at location: SourceLocation) -> SourceLocation? {
        if seen.isEmpty {
          if pairs.count < Frame.fewKeys { return pairs.first { $0.key == key }?.keyLocation }
          for pair in pairs { seen[pair.key] = pair.keyLocation }
        }
        if let first = seen[key] { return first }
        seen[key] = location
        return nil
      }
    }

    let file: String
    /// Whether the document must be written as JSON.
    let json: Bool
    private var stack: [Frame] = []
    private var documents = 0
    /// Keys and values read so far, and how many the document may hold.
    private var nodes = 0
    var maximumNodes = Int.max
    /// What the file is, for errors: "the job file", "the String Catalog".
    var what = "the job file"
    /// The finished document, once its root node is complete.
    private(set) var document: YAMLNode?

    /// Where JSON was rewritten (`rewritingJSON`).
    let joins: Joins
    /// The stand-ins libyaml read for U+0085, U+2028 and U+2029.
    let separators: LineSeparators

    /// The text libyaml reads (its separators replaced, as `LineSeparators`
    /// keeps lines and columns), to find a key's colon (`emptyValuePlace`).
    let source: SourceText?

    init(
      file: String, json: Bool, joins: Joins = Joins(), separators: LineSeparators = LineSeparators(), source: SourceText? = nil
    ) {
      self.file = file
      self.json = json
      self.joins = joins
      self.separators = separators
      self.source = source
    }

    /// Where an empty value in a flow mapping is missing: just after its
    /// key's colon (`{ duration: }` at the space before `}`), as libyaml
    /// places one in a block mapping, or at its key when it has no colon
    /// (`{ a: 1, b }`). libyaml places it at the token after it, the `,` or
    /// `}`, which may be lines below the key.
    private func emptyValuePlace(in frame: Frame) -> SourceLocation? {
      guard frame.flow, frame.kind == .mapping, let key = frame.key, let end = frame.keyEnd else { return nil }
      return source?.place(afterColonFrom: end) ?? key.location
    }

    /// A name or value libyaml read, with its separators back.
    private func text(_ pointer: UnsafePointer<yaml_char_t>, count: Int? = nil) -> String {
      guard let count else { return separators.restore(String(cString: pointer)) }
      return separators.restore(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
    }

    /// JSON's plain scalars: a number as its grammar writes it, true, false, null.
    nonisolated(unsafe) private static let jsonLiteral = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null/

    /// Throws unless a scalar written in `style`, starting at `start`, is
    /// JSON: a string in double quotes (raw line breaks in one were refused
    /// before parsing, `jsonProblem`), or a literal that is not a key.
    private func checkJSON(scalar text: String, style: yaml_scalar_style_t, start: yaml_mark_t) throws(Diagnostic) {
      guard style != YAML_DOUBLE_QUOTED_SCALAR_STYLE else { return }
      let isKey = stack.indices.last.map { stack[$0].kind == .mapping && stack[$0].key == nil } ?? false
      if isKey || style != YAML_PLAIN_SCALAR_STYLE || text.wholeMatch(of: Self.jsonLiteral) == nil {
        let expected = isKey ? "a key in double quotes" : "a value: a string in double quotes, a number, true, false, null, { or ["
        throw Diagnostic(place(start), "invalid JSON: expected \(expected), got \(YAMLNode.quoted(text))")
      }
    }

    private func place(_ mark: yaml_mark_t) -> SourceLocation { joins.location(mark, file: file) }

    /// The path of the node that starts now.
    private var nextPath: KeyPath {
      guard let top = stack.indices.last else { return .root }
      switch stack[top].kind {
      case .sequence: return stack[top].path.appending(index: stack[top].items.count)
      case .mapping: return stack[top].key.map { stack[top].path.appending($0.text) } ?? stack[top].path
      }
    }

    /// Takes one event; true at the end of the stream.
    mutating func add(_ event: yaml_event_t) throws(Diagnostic) -> Bool {
      let location = place(event.start_mark)
      if [YAML_SCALAR_EVENT, YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT].contains(event.type) {
        nodes += 1
        if nodes > maximumNodes {
          throw Diagnostic(location, "\(what) holds more than \(maximumNodes) keys and values; is it the right file?")
        }
      }
      switch event.type {
      case YAML_STREAM_END_EVENT:
        return true
      case YAML_DOCUMENT_START_EVENT:
        documents += 1
        if documents > 1 {
          throw Diagnostic(location, "a job file holds one YAML document; a second one starts here")
        }
      case YAML_ALIAS_EVENT:
        let name = event.data.alias.anchor.map { text($0) } ?? ""
        throw Diagnostic(location, "aliases (*\(name)) are not supported; write the value out")
      case YAML_SCALAR_EVENT:
        let scalar = event.data.scalar
        try checkProperties(anchor: scalar.anchor, tag: scalar.tag, at: location)
        let text = text(scalar.value, count: scalar.length)
        if json { try checkJSON(scalar: text, style: scalar.style, start: event.start_mark) }
        let block = scalar.style == YAML_LITERAL_SCALAR_STYLE || scalar.style == YAML_FOLDED_SCALAR_STYLE
        let style: YAMLNode.ScalarStyle = scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plain : block ? .block : .quoted
        if style == .plain { try checkCommaSplit(text, at: location) }
        // A flow mapping's key's end, for an empty value after it (not in a
        // String Catalog: JSON has none).
        let top = stack.indices.last
        let flowKey = !json && top.map { stack[$0].flow && stack[$0].kind == .mapping && stack[$0].key == nil } ?? false
        var at = location
        if style == .plain, text.isEmpty, let top, let missing = emptyValuePlace(in: stack[top]) { at = missing }
        if flowKey, style == .plain, let top { try checkBracketlessList(key: text, keyEnd: place(event.end_mark), in: top) }
        try attach(YAMLNode(.scalar(text, style), at: at))
        if flowKey, let top { stack[top].keyEnd = place(event.end_mark) }
      case YAML_SEQUENCE_START_EVENT:
        let start = event.data.sequence_start
        try checkProperties(anchor: start.anchor, tag: start.tag, at: location)
        if json, start.style != YAML_FLOW_SEQUENCE_STYLE {
          throw Diagnostic(location, "invalid JSON: expected a value (a string in double quotes, a number, { or [), got a YAML list")
        }
        try push(
          Frame(kind: .sequence, location: location, path: nextPath, flow: start.style == YAML_FLOW_SEQUENCE_STYLE), at: location)
      case YAML_MAPPING_START_EVENT:
        let start = event.data.mapping_start
        try checkProperties(anchor: start.anchor, tag: start.tag, at: location)
        if json, start.style != YAML_FLOW_MAPPING_STYLE {
          throw Diagnostic(location, "invalid JSON: expected a value (a string in double quotes, a number, { or [), got a YAML mapping")
        }
        try push(
          Frame(kind: .mapping, location: location, path: nextPath, flow: start.style == YAML_FLOW_MAPPING_STYLE), at: location)
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        let frame = stack.removeLast()
        switch frame.kind {
        case .sequence: try attach(YAMLNode(.sequence(frame.items), at: frame.location))
        case .mapping: try attach(YAMLNode(.mapping(frame.pairs), at: frame.location))
        }
      default:
        break
      }
      return false
    }

    /// Throws where a comma split an unquoted call inside `{ … }` or `[ … ]`:
    /// YAML ends a plain value at a comma there, so `{ color: rgb(1,2,3) }`
    /// reads `color: rgb(1` and the keys `2` and `3)`, and `[a, f(1, 2)]`
    /// three items. A plain value with a `(` it does not close, followed in
    /// the same collection by one whose first parenthesis closes it, is such
    /// a split, named at its start; `{ text: Sale (ends Monday, color: red }`
    /// closes nothing and stays as YAML reads it.
    private mutating func checkCommaSplit(_ text: String, at location: SourceLocation) throws(Diagnostic) {
      guard !json, let top = stack.indices.last, stack[top].flow else { return }
      let parentheses = text.unicodeScalars.filter { $0 == "(" || $0 == ")" }
      if let open = stack[top].unclosed, parentheses.first == ")" {
        let name = open.text.prefix { $0 != "(" }
        let isCall =
          !name.isEmpty
          && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        let (what, quoted) = isCall ? ("unquoted \(name)(…)", "\(name)(…)") : ("unquoted value", "…")
        let brackets = stack[top].kind == .mapping ? "{ … }" : "[ … ]"
        throw Diagnostic(
          open.location, "invalid YAML: the commas inside this \(what) end it inside \(brackets); quote the whole value: \"\(quoted)\"")
      }
      let opened = parentheses.reduce(0) { depth, p in p == "(" ? depth + 1 : max(0, depth - 1) }
      if stack[top].unclosed == nil, opened > 0 { stack[top].unclosed = (location, text) }
    }

    /// Throws where a list written without its brackets inside `{ … }`
    /// (`{ frame: 0, 0, 10, 10 }`) is split by its commas: YAML ends the
    /// value at the first and reads each number after it as a key without
    /// a value, which the job then calls a duplicate ('10') or unknown
    /// ('0') key. `key`, ending at `keyEnd`, is such a number when no colon
    /// follows it and the pair before it in the mapping at `top` has a
    /// plain number for its value; said at that value, with the list.
    private func checkBracketlessList(key: String, keyEnd: SourceLocation, in top: Int) throws(Diagnostic) {
      guard YAMLNode.number(fromPlain: key) != nil, let source, source.place(afterColonFrom: keyEnd) == nil,
        let pair = stack[top].pairs.last, case .scalar(let value, .plain) = pair.value.content,
        YAMLNode.number(fromPlain: value) != nil
      else { return }
      // The numbers from the value on, up to what ends the mapping or is no number.
      let line = source.scalars(ofLine: pair.value.location.line)
      var rest = ""
      rest.unicodeScalars.append(contentsOf: line[min(line.count, pair.value.location.column - 1)...])
      let items = rest.prefix { !["}", "]", "#"].contains($0) }.split(separator: ",", omittingEmptySubsequences: false)
      let numbers = items.map { String($0).trimmingSpaces }.prefix { YAMLNode.number(fromPlain: $0) != nil }
      let list = numbers.count > 1 ? numbers.joined(separator: ", ") : "\(value), …"
      throw Diagnostic(
        pair.value.location,
        "invalid YAML: inside { … } a comma ends this value, so YAML reads \(YAMLNode.singleQuoted(key)) after it as a key "
          + "of its own; write the list in brackets: '\(YAMLNode.singleQuoted(pair.key).dropFirst().dropLast()): [\(list)]'")
    }

    private func checkProperties(
      anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, at location: SourceLocation
    ) throws(Diagnostic) {
      if let anchor {
        let name = text(anchor)
        throw Diagnostic(location, "anchors (&\(name)) and aliases are not supported; write the value out")
      }
      if let tag {
        var name = text(tag)
        let standard = "tag:yaml.org,2002:"
        if name.hasPrefix(standard) { name = "!!" + name.dropFirst(standard.count) }
        throw Diagnostic(location, "YAML tags (\(name)) are not supported; remove the tag")
      }
    }

    private mutating func push(_ frame: Frame, at location: SourceLocation) throws(Diagnostic) {
      if stack.count >= YAMLReader.maximumDepth {
        throw Diagnostic(location, "values are nested more than \(YAMLReader.maximumDepth) levels deep")
      }
      if let parent = stack.indices.last, stack[parent].kind == .mapping, stack[parent].key == nil {
        throw Diagnostic(location, "a mapping key must be a plain value, not a list or mapping")
      }
      stack.append(frame)
    }

    /// Adds a finished node to the container on top of the stack.
    private mutating func attach(_ node: YAMLNode) throws(Diagnostic) {
      let top = stack.count - 1
      guard top >= 0 else {
        document = node
        return
      }
      switch stack[top].kind {
      case .sequence:
        stack[top].items.append(node)
      case .mapping:
        if let key = stack[top].key {
          stack[top].pairs.append(YAMLNode.Pair(key: key.text, keyLocation: key.location, value: node))
          stack[top].key = nil
        } else {
          // A key: always a scalar here (`push` rejects containers as keys),
          // as written: `~` and `null` are no null as names (they showed as '').
          guard case .scalar(let text, let style) = node.content else { return }
          // YAML 1.1's merge key (`<<: *defaults`), which only a plain `<<` is:
          // without anchors and aliases it has nothing to merge.
          if text == "<<", style == .plain {
            throw Diagnostic(node.location, "merge keys (<<) are not supported, as anchors and aliases are not; write the keys out")
          }
          // `canvas:` above `\u{a0} size: …`: a key that starts with a blank
          // YAML reads as text is one key, one level up, for the indentation it seems to have.
          if style == .plain, !json, let blank = text.unicodeScalars.first, LookalikeBlank.contains(blank) {
            throw Diagnostic(
              node.location,
              "invalid YAML: this key starts with a \(LookalikeBlank.name(of: blank)), which YAML reads as part of the key, "
                + "not as indentation: the key is \(YAMLNode.singleQuoted(text)) \(stack[top].path.keyPlace); indent with spaces only")
          }
          if let first = stack[top].note(key: text, at: node.location) {
            throw Diagnostic(
              node.location,
              "duplicate key '\(text)' \(stack[top].path.keyPlace) (first at line \(first.line), column \(first.column))")
          }
          stack[top].key = (text, node.location)
        }
      }
    }
  }
}
