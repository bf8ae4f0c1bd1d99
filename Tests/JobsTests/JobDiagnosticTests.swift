// Broken job files, each with the exact diagnostic it must produce:
// `FILE:LINE:COL: error: MESSAGE`, columns counted by hand (1-based, in
// characters). The test catalog adds two stand-in transitions so element,
// point and colour parameters and operation checks can be exercised.

import Testing
import Transitions

@testable import Jobs

/// A broken job file and its diagnostic.
struct BrokenJob: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]
  var expected: String

  init(_ name: String, _ text: String, _ expected: String) {
    self.init(name, bytes: Array(text.utf8), expected)
  }

  init(_ name: String, bytes: [UInt8], _ expected: String) {
    self.name = name
    self.bytes = bytes
    self.expected = expected
  }

  var testDescription: String { name }
}

enum TestCatalog {
  static let magicMove = TransitionDescriptor(
    name: "magic-move", origin: "test", summary: "stand-in with an element", operations: [.push, .pop],
    parameters: SharedParameters.timed(duration: 0.75, curve: "easeInEaseOut") + [
      ParameterDescriptor("element", .element, default: "none", "shared view"),
      ParameterDescriptor("tap", .point, default: "[0, 0]", "tap point"),
      ParameterDescriptor("tint", .color, default: "black", "tint"),
      ParameterDescriptor("m34", .number, default: "-0.002", "perspective"),
      ParameterDescriptor("placeholder", .fill, default: "clear", "the slot the element leaves"),
    ],
    make: { CircleSpread(parameters: $0) })

  static let sheetUp = TransitionDescriptor(
    name: "sheet-up", origin: "test", summary: "stand-in for present/dismiss", operations: [.present, .dismiss],
    parameters: SharedParameters.timed(duration: 0.5, curve: "easeOut"),
    make: { CircleSpread(parameters: $0) })

  static let all = [CircleSpread.descriptor, magicMove, sheetUp]
}

/// Two screens, 7 lines: `home` (view `button`) and `detail` (view `hero`).
let screens = """
  screens:
    home:
      views:
        - { id: button, frame: [10, 20, 100, 44] }
    detail:
      views:
        - { id: hero, frame: [0, 0, 393, 393] }

  """

/// `screens` and a timeline whose first step (line 9) is `step`.
func job(_ step: String, then more: String = "") -> String {
  screens + "timeline:\n  - \(step)\n" + more
}

let brokenJobs: [BrokenJob] = [
  // MARK: YAML and bytes
  BrokenJob(
    "bad indentation", "canvas:\n  fps: 60\n background: \"#000000\"\n",
    "job.cfg:3:2: error: invalid YAML: did not find expected key (while parsing a block mapping at line 1, column 1)"),
  BrokenJob(
    "tab indentation", "canvas:\n\tfps: 60\n",
    "job.cfg:2:1: error: invalid YAML: found character that cannot start any token (while scanning for the next token); indent with spaces, not tabs"),
  // A tab libyaml meets in the indentation after a value, or of a block scalar's line, says what to write: it
  // named the rule ("found a tab character that violates indentation") and the value on the line before.
  BrokenJob(
    "tab indenting a line after a value", "canvas:\n  fps: 60\n\tscale: 2\n",
    "job.cfg:3:1: error: invalid YAML: this line is indented with a tab; YAML indents with spaces only: write spaces in its place"),
  BrokenJob(
    "tab in a blank line after a value", "canvas:\n  fps: 60\n\t\n",
    "job.cfg:3:1: error: invalid YAML: this blank line holds a tab, which YAML reads as indentation here; YAML indents with spaces only: remove the tab"),
  BrokenJob(
    "tab indenting a comment line after a value", "canvas:\n  fps: 60\n  \t# frames\n",
    "job.cfg:3:3: error: invalid YAML: this comment line is indented with a tab; YAML indents with spaces only: write spaces in its place"),
  BrokenJob(
    "tab indenting a block scalar's line", "name: |\n  demo\n\t  x\n",
    "job.cfg:3:1: error: invalid YAML: this line of a block scalar (| or >) is indented with a tab; YAML indents with spaces only: write spaces in its place (a tab after the indentation's spaces is kept as text)"),
  // A %YAML directive of a version libyaml does not read names what to write: it said "found incompatible YAML document".
  BrokenJob(
    "YAML 1.3 directive", "%YAML 1.3\n---\ncanvas: { fps: 30 }\n",
    "job.cfg:1:7: error: invalid YAML: this file asks for YAML 1.3, which transvid does not read (it reads 1.2 and 1.1): write '%YAML 1.2', or leave the line out"),
  BrokenJob(
    "YAML 2.0 directive after a comment", "# demo\n%YAML   2.0 # new\n---\ncanvas: { fps: 30 }\n",
    "job.cfg:2:9: error: invalid YAML: this file asks for YAML 2.0, which transvid does not read (it reads 1.2 and 1.1): write '%YAML 1.2', or leave the line out"),
  // A no-break space (U+00A0), which YAML reads as text, where a space is meant says so: indenting a key it
  // made the key '\u{a0} fps' at the top level ("unknown key … at the top level"), alone on a line it gave
  // libyaml's "could not find expected ':'" at the line after, and after a colon the glued key's hint was missing.
  BrokenJob(
    "no-break space indenting a key", "canvas:\n\u{A0} fps: 30\n",
    "job.cfg:2:1: error: invalid YAML: this key starts with a no-break space (U+00A0), which YAML reads as part of the key, not as indentation: the key is '\\u{a0} fps' at the top level; indent with spaces only"),
  BrokenJob(
    "no-break space indenting a step", "timeline:\n \u{A0}- hold: 1\n",
    "job.cfg:2:2: error: invalid YAML: this key starts with a no-break space (U+00A0), which YAML reads as part of the key, not as indentation: the key is '\\u{a0}- hold' in timeline; indent with spaces only"),
  BrokenJob(
    "no-break space alone on a line", "canvas:\n  fps: 30\n\u{A0}\n  scale: 2\n",
    "job.cfg:3:1: error: invalid YAML: YAML reads this no-break space (U+00A0) as text, not as a space, and so as a key missing its ':'; indent with spaces only, or remove it"),
  BrokenJob(
    "no-break space after a block key's colon", "canvas:\n  fps: 30\n  scale:\u{A0}2\n",
    "job.cfg:3:8: error: invalid YAML: this ':' is followed by a no-break space (U+00A0), which YAML does not read as a space, so it ends no key; write a space after the ':'"),
  BrokenJob(
    "no-break space after a flow key's colon", "canvas: { size: 100x200, fps:\u{A0}30 }\n",
    "job.cfg:1:26: error: unknown key 'fps:\\u{a0}30' in canvas; YAML reads 'fps:\\u{a0}30' as one key, as its ':' is followed by a no-break space (U+00A0), which YAML does not read as a space: write 'fps: 30'"),
  BrokenJob(
    "no-break space after a step's colon", job("hold:\u{A0}1"),
    "job.cfg:9:5: error: timeline[0]: expected a step: hold, push, pop, present or dismiss, got \"hold:\\u{a0}1\"; YAML reads 'hold:\\u{a0}1' as one value, as its ':' is followed by a no-break space (U+00A0), which YAML does not read as a space: write 'hold: 1'"),
  // A byte-order mark that starts a line, which libyaml skips there, the line then one column further in, is
  // named: a second one at the file's start gave "did not find expected <document start>" at the next line, one
  // a joined file brought along "did not find expected key" at the column after it.
  BrokenJob(
    "two byte-order marks", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("canvas: { fps: 30 }\nname: x\n".utf8),
    "job.cfg:1:1: error: invalid YAML: this line starts with a byte-order mark (U+FEFF), which shows as nothing; YAML skips it there and reads the line as indented one column further in: remove it"),
  BrokenJob(
    "byte-order mark starting a later line", "canvas: { fps: 30 }\n\u{FEFF}name: x\n",
    "job.cfg:2:1: error: invalid YAML: this line starts with a byte-order mark (U+FEFF), which shows as nothing; YAML skips it there and reads the line as indented one column further in: remove it"),
  // A list written without its brackets inside { … } says so at its first number: the comma ends the value there,
  // and the numbers after it were named as keys, "duplicate key '10'" or "unknown key '0'".
  BrokenJob(
    "frame without brackets inside braces", "screens:\n  a: { views: [ { id: v, frame: 0,0,10,10 } ] }\n",
    "job.cfg:2:33: error: invalid YAML: inside { … } a comma ends this value, so YAML reads '0' after it as a key of its own; write the list in brackets: 'frame: [0, 0, 10, 10]'"),
  BrokenJob(
    "point without brackets inside braces", job("push: { to: detail, transition: circle-spread, tap: 10, 20 }"),
    "job.cfg:9:57: error: invalid YAML: inside { … } a comma ends this value, so YAML reads '20' after it as a key of its own; write the list in brackets: 'tap: [10, 20]'"),
  BrokenJob(
    "size without brackets inside braces", "canvas: { size: 200,300, scale: 1 }\n",
    "job.cfg:1:17: error: invalid YAML: inside { … } a comma ends this value, so YAML reads '300' after it as a key of its own; write the list in brackets: 'size: [200, 300]'"),
  // Outside braces YAML reads such a list as one text: suggested with its brackets (it got the form alone).
  BrokenJob(
    "frame without brackets outside braces", "screens:\n  a:\n    views:\n      - frame: 0, 0, 10, 10\n",
    "job.cfg:4:16: error: screens.a.views[0].frame: expected [x, y, width, height] in points, got \"0, 0, 10, 10\"; did you mean [0, 0, 10, 10]? (a list is written in brackets)"),
  BrokenJob(
    "frame of three numbers without brackets: no hint", "screens:\n  a:\n    views:\n      - frame: 0, 0, 10\n",
    "job.cfg:4:16: error: screens.a.views[0].frame: expected [x, y, width, height] in points, got \"0, 0, 10\""),
  BrokenJob(
    "formats between commas without brackets", "output:\n  formats: gif, mp4\n",
    "job.cfg:2:12: error: output.formats: unknown format \"gif, mp4\"; did you mean [gif, mp4]? (a list is written in brackets)"),
  // Text left over after a value its own quote ended says how to write the quote inside: libyaml named the key
  // or bracket it expected ("did not find expected key (while parsing a block mapping at line 4, column 9)").
  BrokenJob(
    "apostrophe inside single quotes", "screens:\n  a:\n    views:\n      - frame: [0, 0, 10, 10]\n        text: 'It's here'\n",
    "job.cfg:5:19: error: invalid YAML: this text is left over after the quoted value the ' before it ends; inside single quotes an apostrophe is written twice ('It''s here'), or quote the value in double quotes"),
  BrokenJob(
    "quotes inside double quotes, in braces", "screens:\n  a: { views: [ { frame: [0, 0, 10, 10], text: \"Say \"hi\" now\" } ] }\n",
    "job.cfg:2:54: error: invalid YAML: this text is left over after the quoted value the \" before it ends; inside double quotes a quote is written \\\" (\"Say \\\"hi\\\"\"), or quote the value in single quotes"),
  // A # inside text in braces, where the comment it starts hides the closing bracket, says to quote the text: it said
  // "quote a hex colour", as it does for a # that starts a value.
  BrokenJob(
    "number sign inside text in braces", "screens:\n  a: { views: [ { frame: [0, 0, 1, 1], text: Price #1 } ] }\n",
    "job.cfg:2:52: error: invalid YAML: this # starts a comment, which hides the rest of the line and the bracket that closes the { … } or [ … ] it is in; quote the value it is in: \"Price #1\""),
  BrokenJob(
    "unclosed flow sequence", "name: demo\ntimeline: [hold: 1\nscreens: {}\n",
    "job.cfg:3:8: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 11)"),
  BrokenJob(
    "duplicate key", "canvas: { fps: 30, fps: 60 }\n",
    "job.cfg:1:20: error: duplicate key 'fps' in canvas (first at line 1, column 11)"),
  // A status bar that is neither a height nor a mapping names both forms (it
  // named the height alone, so `statusBar: true` read as if a bar could only be kept, not drawn).
  BrokenJob(
    "status bar neither height nor mapping", "canvas: { statusBar: true }\n",
    "job.cfg:1:22: error: canvas.statusBar: expected a height in points from 1 to 426, or { time: \"9:41\", style: auto } to draw one, got true"),
  BrokenJob(
    "status bar height out of range", "canvas: { statusBar: 500 }\n",
    "job.cfg:1:22: error: canvas.statusBar: expected a height in points from 1 to 426, got 500"),
  // MARK: A number in quotes is text
  BrokenJob(
    "quoted hold", job("hold: '1.5'"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"1.5\" (in quotes, so text: write 1.5 without them)"),
  BrokenJob(
    "quoted frame coordinate", "screens:\n  home:\n    views:\n      - { frame: [0, \"20\", 10, 10] }\ntimeline: [ { hold: 1 } ]\n",
    "job.cfg:4:22: error: screens.home.views[0].frame[1]: expected a number from -100000 to 100000, got \"20\" (in quotes, so text: write 20 without them)"),
  // A block scalar is text too, and has no quotes to take off: it said "in quotes".
  BrokenJob(
    "folded hold", job("hold: >-\n      1.5"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"1.5\" (a block scalar, | or >, so text: write 1.5 after the key's colon)"),
  BrokenJob(
    "literal fps", "canvas:\n  fps: |-\n    60\n",
    "job.cfg:2:8: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"60\" (a block scalar, | or >, so text: write 60 after the key's colon)"),
  BrokenJob(
    "quoted hold out of range: no hint", job("hold: \"900\""),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"900\""),
  // A spring's numbers, a gesture's interval and a canvas size's sides say so too (they said "expected a number, got \"1\"").
  BrokenJob(
    "quoted spring velocity", job("push: { to: detail, transition: circle-spread, spring: { damping: 0.5, velocity: \"1\" } }"),
    "job.cfg:9:86: error: timeline[0].push.spring.velocity: expected a number, got \"1\" (in quotes, so text: write 1 without them)"),
  BrokenJob(
    "quoted spring quotient", job("push: { to: detail, transition: circle-spread, spring: { damping: 0.5, velocity: \"1/0.55\" } }"),
    "job.cfg:9:86: error: timeline[0].push.spring.velocity: expected a number, got \"1/0.55\" (in quotes, so text: write 1/0.55 without them)"),
  BrokenJob(
    "quoted gesture interval", job("push: { to: detail, transition: circle-spread, gesture: { progress: [0, 1], interval: \"1/60\" } }"),
    "job.cfg:9:91: error: timeline[0].push.gesture.interval: expected a number of seconds from 0.001 to 10 (or a quotient such as 1/60), got \"1/60\" (in quotes, so text: write 1/60 without them)"),
  BrokenJob(
    "quoted hold quotient: no hint, as a hold takes none", job("hold: \"1/2\""),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"1/2\""),
  BrokenJob(
    "quoted canvas side", "canvas: { size: [100, \"200\"] }\n",
    "job.cfg:1:23: error: canvas.size[1]: expected a number of points from 1 to 8192, got \"200\" (in quotes, so text: write 200 without them)"),
  // An NTSC rate written as the quotient README says it is: suggested by its name (it listed the rates alone).
  BrokenJob(
    "fps as its quotient", "canvas: { fps: 24000/1001 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"24000/1001\"; did you mean 23.976 (24000/1001)?"),
  BrokenJob(
    "whole fps as a quotient", "canvas: { fps: 30/1 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"30/1\"; did you mean 30?"),
  // An NTSC rate rounded otherwise than README writes it: suggested (it listed the rates alone).
  BrokenJob(
    "fps of an NTSC rate rounded up", "canvas: { fps: 23.98 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 23.98; did you mean 23.976 (24000/1001)?"),
  BrokenJob(
    "fps of an NTSC rate cut short", "canvas: { fps: 59.9 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 59.9; did you mean 59.94 (60000/1001)?"),
  BrokenJob(
    "fps of no NTSC rate: no hint", "canvas: { fps: 29.5 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 29.5"),
  // A time written with its unit, as CSS and editors write it, is suggested without it (it got the range alone).
  BrokenJob(
    "hold with its unit", job("hold: 0.3s"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"0.3s\"; did you mean 0.3? (seconds, without a unit)"),
  BrokenJob(
    "duration in milliseconds", job("push: { to: detail, transition: circle-spread, duration: 300ms }"),
    "job.cfg:9:62: error: timeline[0].push.duration: expected a number of seconds from 0 to 60, got \"300ms\"; did you mean 0.3? (seconds, without a unit)"),
  BrokenJob(
    "hold with its unit spelled out", job("hold: 2 seconds"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"2 seconds\"; did you mean 2? (seconds, without a unit)"),
  BrokenJob(
    "hold with its unit, too long: no hint", job("hold: 700 s"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"700 s\""),
  // A capital X is no size's: said, where it listed the forms alone.
  BrokenJob(
    "canvas size with a capital X", "canvas: { size: 390X844 }\n",
    "job.cfg:1:17: error: canvas.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to 8192, got \"390X844\"; did you mean '390x844'?"),
  BrokenJob(
    "stage size with a capital X", "stage: { size: 600X1000 }\n",
    "job.cfg:1:16: error: stage.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], got \"600X1000\"; did you mean '600x1000'?"),
  // A size written as a list without its brackets, or with its unit, points, is suggested as one (it got the forms alone).
  BrokenJob(
    "canvas size written with a comma", "canvas:\n  size: 390, 844\n",
    "job.cfg:2:9: error: canvas.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to 8192, got \"390, 844\"; did you mean '390x844'?"),
  BrokenJob(
    "stage size written with its unit", "stage: { size: 600x1000pt }\n",
    "job.cfg:1:16: error: stage.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], got \"600x1000pt\"; did you mean '600x1000'?"),
  BrokenJob(
    "canvas size in pixels: no hint", "canvas: { size: 1179x2556px }\n",
    "job.cfg:1:17: error: canvas.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to 8192, got \"1179x2556px\""),
  // A decimal comma is suggested as a point (it got the range alone).
  BrokenJob(
    "hold with a decimal comma", job("hold: 1,5"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"1,5\"; did you mean 1.5? (a decimal point, not a comma)"),
  BrokenJob(
    "a thousands comma: no hint", job("hold: 1,000"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got \"1,000\""),
  // MARK: Paths: the system ends one at a NUL, so "a.png\0/../b.png" would open a.png
  BrokenJob(
    "NUL in a screen's image", "screens:\n  home:\n    image: \"shot.png\\0/../b.png\"\ntimeline: [ { hold: 1 } ]\n",
    "job.cfg:3:12: error: screens.home.image: expected the path of an image file (PNG, JPEG, WebP, GIF or BMP) without NUL characters (the system ends a path at the first), got \"shot.png\\u{0}/../b.png\""),
  BrokenJob(
    "NUL in a font file", "screens:\n  home:\n    views:\n      - { frame: [0, 0, 10, 10], text: a, font: { file: \"f.ttf\\x00x\" } }\ntimeline: [ { hold: 1 } ]\n",
    "job.cfg:4:57: error: screens.home.views[0].font.file: expected the path of a font file (TrueType, OpenType or a collection) without NUL characters (the system ends a path at the first), got \"f.ttf\\u{0}x\""),
  BrokenJob(
    "NUL in a String Catalog's path", "locales: [en]\nstrings: \"s.xcstrings\\0\"\n" + screens + "timeline: [ { hold: 1 } ]\n",
    "job.cfg:2:10: error: strings: expected the path of a .xcstrings String Catalog without NUL characters (the system ends a path at the first), got \"s.xcstrings\\u{0}\""),
  BrokenJob(
    "NUL in output.dir", "output: { dir: \"out\\0/..\" }\n" + screens + "timeline: [ { hold: 1 } ]\n",
    "job.cfg:1:16: error: output.dir: expected a directory path without NUL characters (the system ends a path at the first), got \"out\\u{0}/..\""),
  BrokenJob(
    "NUL in a stage background image", "stage: { background: { image: \"bg.png\\0\" } }\n" + screens + "timeline: [ { hold: 1 } ]\n",
    "job.cfg:1:31: error: stage.background.image: expected the path of an image file (PNG, JPEG, WebP, GIF or BMP) without NUL characters (the system ends a path at the first), got \"bg.png\\u{0}\""),
  BrokenJob(
    "duplicate top-level key", "name: a\nname: b\n",
    "job.cfg:2:1: error: duplicate key 'name' at the top level (first at line 1, column 1)"),
  BrokenJob(
    "two documents", job("hold: 1") + "---\nname: other\n",
    "job.cfg:10:1: error: a job file holds one YAML document; a second one starts here"),
  BrokenJob(
    "anchor", "screens:\n  home: &base\n    background: white\n  detail: *base\n",
    "job.cfg:2:9: error: anchors (&base) and aliases are not supported; write the value out"),
  BrokenJob(
    "alias", "name: *demo\n",
    "job.cfg:1:7: error: aliases (*demo) are not supported; write the value out"),
  BrokenJob(
    "tag", "name: !!str demo\n",
    "job.cfg:1:7: error: YAML tags (!!str) are not supported; remove the tag"),
  BrokenJob(
    "complex key", "? [a, b]\n: c\n",
    "job.cfg:1:3: error: a mapping key must be a plain value, not a list or mapping"),
  BrokenJob("empty file", "", "job.cfg:1:1: error: the job file is empty"),
  BrokenJob("only comments", "# nothing yet\n\n", "job.cfg:1:1: error: the job file is empty"),
  BrokenJob(
    "NUL byte", bytes: Array("name: a".utf8) + [0] + Array("b\n".utf8),
    "job.cfg:1:8: error: the job file contains a NUL byte; is it a text file?"),
  BrokenJob(
    "invalid UTF-8", bytes: Array("name: demo\n# caf".utf8) + [0xE9] + Array("\n".utf8),
    "job.cfg:2:6: error: the job file is not valid UTF-8 (byte 0xE9); save it as UTF-8"),
  BrokenJob(
    "UTF-16", bytes: [0xFF, 0xFE, 0x6E, 0x00],
    "job.cfg:1:1: error: the job file is not valid UTF-8 (byte 0xFF); save it as UTF-8"),
  BrokenJob(
    "control character", "name: démo\u{7}\n",
    "job.cfg:1:11: error: the job file contains a control character (U+0007)"),

  // MARK: Top level and name
  BrokenJob(
    "top level is a list", "- a\n- b\n",
    "job.cfg:1:1: error: the job file: expected a mapping with name, canvas, output, screens and timeline, got a list of 2 items"),
  BrokenJob(
    "unknown top-level key", "colour: red\n",
    "job.cfg:1:1: error: unknown key 'colour' at the top level; expected one of: name, canvas, output, screens, timeline, stage, locales, strings, appearances"),
  BrokenJob(
    "unknown key, echoed cut", "\(String(repeating: "x", count: 60)): 1\n",
    "job.cfg:1:1: error: unknown key '\(String(repeating: "x", count: 40))…' at the top level; expected one of: name, canvas, output, screens, timeline, stage, locales, strings, appearances"),
  BrokenJob(
    "two keys in a step, echoed cut", "screens: { a: {} }\ntimeline:\n  - { hold: 1, \(String(repeating: "x", count: 60)): 2 }\n",
    "job.cfg:3:16: error: timeline[0]: a step has one key, found 'hold' and '\(String(repeating: "x", count: 40))…' (start each step with '-')"),
  BrokenJob(
    "unknown string key, echoed cut",
    "strings: { en: { greet: Hi } }\nscreens:\n  a:\n    views:\n      - { frame: [0, 0, 10, 10], text: { key: \(String(repeating: "k", count: 60)) } }\ntimeline: [hold: 1]\n",
    "job.cfg:5:47: error: screens.a.views[0].text.key: no string '\(String(repeating: "k", count: 40))…' in the inline strings; expected one of: greet"),
  BrokenJob(
    "missing screens", "timeline: [hold: 1]\n",
    "job.cfg:1:1: error: missing 'screens' (a mapping of screen names to screens)"),
  BrokenJob(
    "name is a list", "name: [a, b]\n",
    "job.cfg:1:7: error: name: expected a file name of ASCII letters, digits, '-', '_' and '.', not starting with '.', got a list of 2 items"),
  BrokenJob(
    "name with a slash", "name: demos/intro\n",
    "job.cfg:1:7: error: name: expected a file name of ASCII letters, digits, '-', '_' and '.', not starting with '.', got \"demos/intro\""),

  // MARK: canvas
  BrokenJob(
    "fps is a word", "canvas: { fps: sixty }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"sixty\""),
  BrokenJob(
    "fps 0", "canvas: { fps: 0 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 0"),
  BrokenJob(
    "fps 1000", "canvas:\n  fps: 1000\n",
    "job.cfg:2:8: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 1000"),
  BrokenJob(
    "fps NaN", "canvas: { fps: .nan }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got .nan"),
  BrokenJob(
    "fps infinite", "canvas: { fps: .inf }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got .inf"),
  BrokenJob(
    "fps boolean", "canvas: { fps: true }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got true"),
  BrokenJob(
    "fps quoted", "canvas: { fps: \"60\" }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got \"60\" (in quotes, so text: write 60 without them)"),
  BrokenJob(
    "fps fractional", "canvas: { fps: 29.5 }\n",
    "job.cfg:1:16: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got 29.5"),
  BrokenJob(
    "size with a word", "canvas: { size: 390by844 }\n",
    "job.cfg:1:17: error: canvas.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to 8192, got \"390by844\""),
  BrokenJob(
    "size zero", "canvas: { size: 0x844 }\n",
    "job.cfg:1:17: error: canvas.size: expected a size in points: WIDTHxHEIGHT or [WIDTH, HEIGHT], each from 1 to 8192, got 0x844"),
  BrokenJob(
    "too many pixels", "canvas: { size: 4000x3000, scale: 3 }\n",
    "job.cfg:1:17: error: canvas.size: 4000x3000 points at scale 3 is 12000x9000 pixels; at most 8192 per side (raise the limit with --max-side)"),
  BrokenJob(
    "scale 4", "canvas: { device: iphone-se, scale: 4 }\n",
    "job.cfg:1:37: error: canvas.scale: expected an integer from 1 to 3, got 4"),
  BrokenJob(
    "unknown device", "canvas: { device: iphone15 }\n",
    "job.cfg:1:19: error: canvas.device: unknown device \"iphone15\"; did you mean 'iphone-15'?"),
  BrokenJob(
    "bad hex colour", "canvas: { background: \"#GGHHII\" }\n",
    "job.cfg:1:23: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"#GGHHII\""),
  BrokenJob(
    "short hex colour", "canvas: { background: \"#12345\" }\n",
    "job.cfg:1:23: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"#12345\""),
  BrokenJob(
    "unquoted hex colour", "canvas:\n  background: #FFFFFF\n",
    "job.cfg:2:14: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got nothing (quote hex colours: an unquoted # starts a comment)"),
  // An empty value in `{ … }` is missing just after its key's colon, as in a
  // block mapping, not at the `,` or `}` after it (which libyaml names).
  BrokenJob(
    "empty value before a flow mapping's end", "canvas: { fps: }\n",
    "job.cfg:1:15: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got nothing"),
  BrokenJob(
    "empty value before a comma, quoted key", "canvas: { \"fps\"  :   , scale: 2 }\n",
    "job.cfg:1:19: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got nothing"),
  BrokenJob(
    "empty value, its mapping closed lines below", "canvas: { scale: 2, fps:\n\n\n  }\n",
    "job.cfg:1:25: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got nothing"),
  BrokenJob(
    "key without a colon in a flow mapping", "canvas: { scale: 2, fps }\n",
    "job.cfg:1:21: error: canvas.fps: expected an integer from 1 to 120, or 23.976, 29.97, 59.94 or 119.88, got nothing"),
  BrokenJob(
    "no space between a key's colon and the bracket", "canvas: { scale: 2, fps:}\n",
    "job.cfg:1:25: error: invalid YAML: the value after this ':' is missing ('}' follows it); write the value after a space: 'KEY: VALUE'"),
  BrokenJob(
    "no space between a key's colon and a comma", "canvas: { fps:, scale: 2 }\n",
    "job.cfg:1:15: error: invalid YAML: the value after this ':' is missing (',' follows it); write the value after a space: 'KEY: VALUE'"),
  BrokenJob(
    "misspelt colour name", "canvas: { background: systemBlu }\n",
    "job.cfg:1:23: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"systemBlu\"; did you mean 'systemBlue'?"),

  // MARK: output
  BrokenJob(
    "crf 60", "output: { mp4: { crf: 60 } }\n",
    "job.cfg:1:23: error: output.mp4.crf: expected an integer from 1 to 51, got 60"),
  BrokenJob(
    "misspelt gif loop", "output: { gif: { loop: forevr } }\n",
    "job.cfg:1:24: error: output.gif.loop: expected 'forever' or a repeat count from 0 to 65535, got \"forevr\"; did you mean 'forever'?"),
  BrokenJob(
    "unknown preset", "output: { mp4: { preset: medum } }\n",
    "job.cfg:1:26: error: output.mp4.preset: unknown x264 preset \"medum\"; did you mean 'medium'?"),
  BrokenJob(
    "unknown format", "output: { formats: [mp4, avi] }\n",
    "job.cfg:1:26: error: output.formats[1]: unknown format \"avi\"; expected one of: mp4, gif, png, sheet, webm, mov, apng, webp"),
  BrokenJob(
    "format twice", "output: { formats: [gif, gif] }\n",
    "job.cfg:1:26: error: output.formats[1]: 'gif' is listed twice"),

  // MARK: screens
  BrokenJob(
    "screen name too long", "screens:\n  \(String(repeating: "s", count: 101)):\n    background: white\ntimeline: [hold: 1]\n",
    "job.cfg:2:3: error: screens: expected a screen name of at most 100 characters, got \"\(String(repeating: "s", count: 40))…\""),
  BrokenJob(
    "view id too long", "screens:\n  home:\n    views:\n      - { id: \(String(repeating: "v", count: 101)), frame: [0, 0, 10, 10] }\ntimeline: [hold: 1]\n",
    "job.cfg:4:15: error: screens.home.views[0].id: expected a view id of at most 100 characters, got \"\(String(repeating: "v", count: 40))…\""),
  BrokenJob(
    "unknown screen key", "screens:\n  home:\n    backgroud: white\n",
    "job.cfg:3:5: error: unknown key 'backgroud' in screens.home; did you mean 'background'?"),
  BrokenJob(
    "view without frame", "screens:\n  home:\n    views:\n      - { id: button }\n",
    "job.cfg:4:9: error: screens.home.views[0]: missing 'frame' ([x, y, width, height] in points)"),
  BrokenJob(
    "negative view width", "screens:\n  home:\n    views:\n      - { frame: [0, 0, -10, 20] }\n",
    "job.cfg:4:25: error: screens.home.views[0].frame[2]: expected a width ≥ 0, got -10"),
  BrokenJob(
    "view id twice", "screens:\n  home:\n    views:\n      - { id: a, frame: [0, 0, 1, 1] }\n      - { id: a, frame: [0, 0, 1, 1] }\n",
    "job.cfg:5:15: error: screens.home.views[1].id: screen 'home' already has a view 'a' (at line 4, column 15)"),

  // MARK: timeline
  BrokenJob(
    "empty timeline", screens + "timeline: []\n",
    "job.cfg:8:11: error: timeline: expected at least one step, got an empty list"),
  BrokenJob(
    "unknown step", job("psuh: { to: detail, transition: circle-spread }"),
    "job.cfg:9:5: error: unknown key 'psuh' in timeline[0]; did you mean 'push'?"),
  BrokenJob(
    "two keys in a step", job("hold: 1\n    pop:"),
    "job.cfg:10:5: error: timeline[0]: a step has one key, found 'hold' and 'pop' (start each step with '-')"),
  BrokenJob(
    "a step's option beside it", job("push: { to: detail, transition: circle-spread }\n    slowmo: 4"),
    "job.cfg:10:5: error: timeline[0]: 'slowmo' goes inside the step's mapping, push: { …, slowmo: … }; only caption: sits beside a step"),
  BrokenJob(
    "a parameter beside its step", job("push: { to: detail, transition: circle-spread }\n    duration: 1"),
    "job.cfg:10:5: error: timeline[0]: 'duration' goes inside the step's mapping, push: { …, duration: … }; only caption: sits beside a step"),
  BrokenJob(
    "a caption inside its step", job("push: { to: detail, transition: circle-spread, caption: Hi }"),
    "job.cfg:9:52: error: timeline[0].push.caption: a caption sits beside the step, not inside its mapping: write caption: on the line after the step, indented as the step's key"),
  BrokenJob(
    "hold too long", job("hold: 601"),
    "job.cfg:9:11: error: timeline[0].hold: expected a number of seconds from 0 to 600, got 601"),
  BrokenJob(
    "unknown transition", job("push: { to: detail, transition: circle-spred }"),
    "job.cfg:9:37: error: timeline[0].push.transition: unknown transition \"circle-spred\"; did you mean 'circle-spread'?"),
  BrokenJob(
    "misspelt transition key", job("push: { to: detail, tranistion: circle-spread }"),
    "job.cfg:9:25: error: unknown key 'tranistion' in timeline[0].push; did you mean 'transition'?"),
  BrokenJob(
    "unknown parameter", job("push: { to: detail, transition: circle-spread, radius: 4 }"),
    "job.cfg:9:52: error: unknown parameter 'radius' in timeline[0].push; 'circle-spread' takes: duration, delay, curve, origin, spring, gesture, slowmo, touch, mirror"),
  BrokenJob(
    "misspelt parameter", job("push: { to: detail, transition: circle-spread, duraton: 1 }"),
    "job.cfg:9:52: error: unknown parameter 'duraton' in timeline[0].push; did you mean 'duration'?"),
  // A hex colour with a blank at an end is suggested without it, as a name is.
  BrokenJob(
    "hex colour ending in a space", "canvas: { size: 100x200, background: \"#FFF \" }\n",
    "job.cfg:1:38: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"#FFF \"; did you mean '#FFF'?"),
  // Hex digits without their `#` (or with code's `0x`) are suggested with it: they were given the forms alone.
  BrokenJob(
    "hex colour without its hash", "canvas: { size: 100x200, background: FF8000 }\n",
    "job.cfg:1:38: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"FF8000\"; did you mean '#FF8000'? (quote it: an unquoted # starts a comment)"),
  BrokenJob(
    "hex colour written as code writes it", "canvas: { size: 100x200, background: 0xFF800080 }\n",
    "job.cfg:1:38: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got 0xFF800080; did you mean '#FF800080'? (quote it: an unquoted # starts a comment)"),
  BrokenJob(
    "digits of no hex colour: no hint", "canvas: { size: 100x200, background: 1234 }\n",
    "job.cfg:1:38: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got 1234"),
  BrokenJob(
    "a grey level's number: no hint", "canvas: { size: 100x200, background: 255 }\n",
    "job.cfg:1:38: error: canvas.background: expected a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got 255"),
  // A key glued to its value (no space after its colon) is one key to YAML: the error says what to write.
  BrokenJob(
    "key glued to its value", "canvas: { size: 100x200, scale:1 }\n",
    "job.cfg:1:26: error: unknown key 'scale:1' in canvas; YAML reads 'scale:1' as one key, as its ':' has no space after it: write 'scale: 1'"),
  BrokenJob(
    "parameter glued to its value", job("push: { to: detail, transition: circle-spread, duration:1 }"),
    "job.cfg:9:52: error: unknown parameter 'duration:1' in timeline[0].push; YAML reads 'duration:1' as one key, as its ':' has no space after it: write 'duration: 1'"),
  // A glued key naming a key the step must write is what the user wrote for it: it said "missing 'transition'".
  BrokenJob(
    "step key glued to its value", job("push: { to:detail, transition: circle-spread }"),
    "job.cfg:9:13: error: unknown key 'to:detail' in timeline[0].push; YAML reads 'to:detail' as one key, as its ':' has no space after it: write 'to: detail'"),
  BrokenJob(
    "step key glued to its value, the other missing too", job("push: { to:detail }"),
    "job.cfg:9:13: error: unknown key 'to:detail' in timeline[0].push; YAML reads 'to:detail' as one key, as its ':' has no space after it: write 'to: detail'"),
  BrokenJob(
    "transition glued to its value", job("push: { transition:circle-spread, to: detail }"),
    "job.cfg:9:13: error: unknown key 'transition:circle-spread' in timeline[0].push; YAML reads 'transition:circle-spread' as one key, as its ':' has no space after it: write 'transition: circle-spread'"),
  // In a spring's mapping too: it said "spring.velocity:1: expected a number, got nothing".
  BrokenJob(
    "spring label glued to its value", job("push: { to: detail, transition: circle-spread, spring: { velocity:1 } }"),
    "job.cfg:9:62: error: unknown parameter 'velocity:1' in timeline[0].push.spring; YAML reads 'velocity:1' as one key, as its ':' has no space after it: write 'velocity: 1'"),
  // Where YAML reads the glued key and its value as one value (a block mapping's only line, a step), or refuses a
  // bracket after the colon, the error says what to write too: it named the mapping or step expected alone.
  BrokenJob(
    "key glued to its value as a mapping's only line", "canvas:\n  fps:10\n",
    "job.cfg:2:3: error: canvas: expected a mapping, got \"fps:10\"; YAML reads 'fps:10' as one value, as its ':' has no space after it: write 'fps: 10'"),
  BrokenJob(
    "keys glued to their values on two lines, which YAML folds into one: no hint", "canvas:\n  fps:10\n  scale:2\n",
    "job.cfg:2:3: error: canvas: expected a mapping, got \"fps:10 scale:2\""),
  BrokenJob(
    "step glued to its value", job("hold:1"),
    "job.cfg:9:5: error: timeline[0]: expected a step: hold, push, pop, present or dismiss, got \"hold:1\"; YAML reads 'hold:1' as one value, as its ':' has no space after it: write 'hold: 1'"),
  BrokenJob(
    "step's key glued to its value outside braces", job("push: to:detail"),
    "job.cfg:9:11: error: timeline[0].push: expected a mapping: { to: SCREEN, transition: NAME, … }, got \"to:detail\"; YAML reads 'to:detail' as one value, as its ':' has no space after it: write 'to: detail'"),
  BrokenJob(
    "key glued to a bracket", job("push: { to: detail, transition: circle-spread, gesture: { progress:[0, 1] } }"),
    "job.cfg:9:71: error: invalid YAML: this ':' has no space after it ('[' follows it), so it ends no key; write 'KEY: […'"),
  BrokenJob(
    "block key glued to the bracket of its flow value", "canvas:{ size: 60x80, scale: 1 }\n",
    "job.cfg:1:7: error: invalid YAML: this ':' has no space after it ('{' follows it), so it ends no key; write 'canvas: {…'"),
  BrokenJob(
    "step glued to the bracket of its flow value", job("push:{ to: detail, transition: circle-spread }"),
    "job.cfg:9:9: error: invalid YAML: this ':' has no space after it ('{' follows it), so it ends no key; write 'push: {…'"),
  // A near miss of a word from a fixed list is suggested (the contract sweep: these listed the words only).
  BrokenJob(
    "misspelt gesture direction", job("push: { to: detail, transition: circle-spread, gesture: { direction: rigth, distance: [0, 10] } }"),
    "job.cfg:9:74: error: timeline[0].push.gesture.direction: expected left, right, up, down, leading or trailing, got \"rigth\"; did you mean 'right'?"),
  BrokenJob(
    "misspelt gesture release", job("push: { to: detail, transition: circle-spread, gesture: { progress: [0, 1], release: finsh } }"),
    "job.cfg:9:90: error: timeline[0].push.gesture.release: expected finish or cancel, got \"finsh\"; did you mean 'finish'?"),
  BrokenJob(
    "misspelt boolean", job("push: { to: detail, transition: circle-spread, mirror: ture }"),
    "job.cfg:9:60: error: timeline[0].push.mirror: expected true, false or auto, got \"ture\"; did you mean 'true'?"),
  // A step's name without its colon is one text to YAML, not a step: the
  // message listed the very name it refused ("expected a step: hold, push,
  // pop, …, got \"pop\"").
  BrokenJob(
    "pop without its colon", job("push: { to: detail, transition: circle-spread }", then: "  - pop\n"),
    "job.cfg:10:5: error: timeline[1]: expected a step: hold, push, pop, present or dismiss, got \"pop\"; a step is its name, a colon and a value: pop: {}"),
  BrokenJob(
    "hold without its colon", job("hold 1.5"),
    "job.cfg:9:5: error: timeline[0]: expected a step: hold, push, pop, present or dismiss, got \"hold 1.5\"; a step is its name, a colon and a value: hold: 1.5"),
  BrokenJob(
    "pop without its colon, in a job written as JSON",
    "{\"screens\": {\"a\": {}, \"b\": {}}, \"timeline\": [{\"push\": {\"to\": \"b\", \"transition\": \"circle-spread\"}}, \"pop\"]}\n",
    "job.cfg:1:100: error: timeline[1]: expected a step: hold, push, pop, present or dismiss, got \"pop\"; a step is its name, a colon and a value: pop: {}"),
  // A near miss of caption: beside a step is that key misspelt (it said "a step
  // has one key, found 'hold' and 'capton' (start each step with '-')").
  BrokenJob(
    "misspelt caption beside a step", job("hold: 1\n    capton: Tap to open"),
    "job.cfg:10:5: error: unknown key 'capton' in timeline[0]; did you mean 'caption'?"),
  BrokenJob(
    "misspelt caption before its step", job("captoin: Tap to open\n    hold: 1"),
    "job.cfg:9:5: error: unknown key 'captoin' in timeline[0]; did you mean 'caption'?"),
  BrokenJob(
    "push without its colon", job("push"),
    "job.cfg:9:5: error: timeline[0]: expected a step: hold, push, pop, present or dismiss, got \"push\"; a step is its name, a colon and a value: push: { to: SCREEN, transition: NAME }"),
  // An unquoted cubic-bezier(…) in a gesture's { … } is cut at its
  // commas: the reader says so, as it does for `curve:` (it said
  // "unknown key '0' in timeline[0].push.gesture").
  BrokenJob(
    "unquoted completion curve in braces",
    job("push: { to: detail, transition: circle-spread, gesture: { progress: [0, 0.6], completionCurve: cubic-bezier(0.42, 0, 0.58, 1) } }"),
    "job.cfg:9:100: error: invalid YAML: the commas inside this unquoted cubic-bezier(…) end it inside { … }; quote the whole value: \"cubic-bezier(…)\""),
  BrokenJob(
    "misspelt blur", job("push: { to: detail, transition: magic-move, placeholder: blurr }"),
    "job.cfg:9:62: error: timeline[0].push.placeholder: expected blur or a colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\" or a name like systemBlue, got \"blurr\"; did you mean 'blur'?"),
  BrokenJob(
    "gesture without samples", job("push: { to: detail, transition: circle-spread, gesture: { direction: right } }"),
    "job.cfg:9:61: error: timeline[0].push.gesture: missing 'progress' (percentComplete samples, 0…1) or 'direction' and 'distance'"),
  BrokenJob(
    "missing to", job("push: { transition: circle-spread }"),
    "job.cfg:9:11: error: timeline[0].push: missing 'to' (the screen to show)"),
  BrokenJob(
    "unknown to", job("push: { to: detial, transition: circle-spread }"),
    "job.cfg:9:17: error: timeline[0].push.to: unknown screen \"detial\"; did you mean 'detail'?"),
  BrokenJob(
    "from not on display", job("push: { from: detail, to: home, transition: circle-spread }"),
    "job.cfg:9:19: error: timeline[0].push.from: 'detail' is not on display; 'home', the first screen in screens, is"),
  BrokenJob(
    "push the screen on display", job("push: { to: home, transition: circle-spread }"),
    "job.cfg:9:17: error: timeline[0].push.to: 'home' is already on display"),
  BrokenJob(
    "pop with nothing pushed", job("hold: 1", then: "  - pop:\n"),
    "job.cfg:10:5: error: timeline[1]: pop with nothing pushed"),
  BrokenJob(
    "dismiss after push", job("push: { to: detail, transition: circle-spread }", then: "  - dismiss:\n"),
    "job.cfg:10:5: error: timeline[1]: dismiss, but 'detail' was pushed (timeline[0]); use pop"),
  BrokenJob(
    "pop to the wrong screen", job("push: { to: detail, transition: circle-spread }", then: "  - pop: { to: detail }\n"),
    "job.cfg:10:16: error: timeline[1].pop.to: pop returns to 'home', the screen below, not 'detail'"),
  BrokenJob(
    "operation not supported", job("present: { to: detail, transition: magic-move }"),
    "job.cfg:9:40: error: timeline[0].present.transition: 'magic-move' does not support present (it supports push, pop)"),
  BrokenJob(
    "element id not on the screen", job("push: { to: detail, transition: magic-move, element: { from: button, to: hero2 } }"),
    "job.cfg:9:78: error: timeline[0].push.element.to: screen 'detail' has no view 'hero2'; did you mean 'hero'?"),
  BrokenJob(
    "element missing from", job("push: { to: detail, transition: magic-move, element: { to: hero } }"),
    "job.cfg:9:58: error: timeline[0].push.element: missing 'from' (a view id on 'home')"),
  BrokenJob(
    "negative duration", job("push: { to: detail, transition: circle-spread, duration: -1 }"),
    "job.cfg:9:62: error: timeline[0].push.duration: expected a number of seconds from 0 to 60, got -1"),
  BrokenJob(
    "duration too long", job("push: { to: detail, transition: circle-spread, duration: 90 }"),
    "job.cfg:9:62: error: timeline[0].push.duration: expected a number of seconds from 0 to 60, got 90"),
  BrokenJob(
    "negative rect width", job("push: { to: detail, transition: circle-spread, origin: [0, 0, -5, 10] }"),
    "job.cfg:9:67: error: timeline[0].push.origin[2]: expected a width ≥ 0, got -5"),
  BrokenJob(
    "point with three numbers", job("push: { to: detail, transition: magic-move, tap: [1, 2, 3] }"),
    "job.cfg:9:54: error: timeline[0].push.tap: expected [x, y] in points, got a list of 3 items"),
  BrokenJob(
    "unknown view id, echoed cut", job("push: { to: detail, transition: magic-move, element: { from: \(String(repeating: "b", count: 60)), to: hero } }"),
    "job.cfg:9:66: error: timeline[0].push.element.from: screen 'home' has no view '\(String(repeating: "b", count: 40))…'; expected one of: button"),
  BrokenJob(
    "unknown curve", job("push: { to: detail, transition: circle-spread, curve: easeOutt }"),
    "job.cfg:9:59: error: timeline[0].push.curve: unknown curve 'easeOutt'; did you mean 'easeOut'?"),
  BrokenJob(
    "cubic-bezier x out of range", job("push: { to: detail, transition: circle-spread, curve: \"cubic-bezier(1.5, 0, 0.5, 1)\" }"),
    "job.cfg:9:59: error: timeline[0].push.curve: cubic-bezier: x1 = 1.5 must be in 0…1"),
  // A quoted curve missing its `)` was not cut by a comma: no advice to quote it.
  BrokenJob(
    "quoted cubic-bezier missing its parenthesis", job("push: { to: detail, transition: circle-spread, curve: \"cubic-bezier(0.4, 0, 0.2, 1\" }"),
    "job.cfg:9:59: error: timeline[0].push.curve: malformed curve 'cubic-bezier(0.4, 0, 0.2, 1': expected ',' or ')' at column 28"),
  BrokenJob(
    "unquoted cubic-bezier missing its parenthesis in a flow mapping", job("push: { to: detail, transition: circle-spread, curve: cubic-bezier(0.4, 0, 0.2, 1 }"),
    "job.cfg:9:59: error: timeline[0].push.curve: malformed curve 'cubic-bezier(0.4': expected ',' or ')' at column 17; inside { … } quote the whole value: \"cubic-bezier(…)\""),
  BrokenJob(
    "quoted completion spring missing its parenthesis",
    job("push: { to: detail, transition: circle-spread }", then: "  - pop: { gesture: { progress: [0, 1], completionCurve: \"spring(damping: 0.5\" } }\n"),
    "job.cfg:10:58: error: timeline[1].pop.gesture.completionCurve: malformed curve 'spring(damping: 0.5': expected ',' or ')' at column 20"),
  BrokenJob(
    "unquoted cubic-bezier in a flow mapping", job("push: { to: detail, transition: circle-spread, curve: cubic-bezier(0.4, 0, 0.2, 1) }"),
    "job.cfg:9:59: error: invalid YAML: the commas inside this unquoted cubic-bezier(…) end it inside { … }; quote the whole value: \"cubic-bezier(…)\""),
]

@Suite enum JobDiagnosticTests {
  @Test(arguments: brokenJobs)
  static func diagnostic(_ broken: BrokenJob) {
    do {
      let job = try JobParser.parse(bytes: broken.bytes, file: "job.cfg", transitions: TestCatalog.all)
      Issue.record("parsed, expected \(broken.expected); got \(job)")
    } catch {
      #expect(error.description == broken.expected)
    }
  }

  @Test static func missingFile() {
    #expect(throws: Diagnostic(
      SourceLocation(file: "no/such/job.cfg", line: 1, column: 1),
      "cannot read job file: No such file or directory")) {
      try JobParser.load(path: "no/such/job.cfg")
    }
  }

  @Test static func unsafeDefaultName() {
    #expect(throws: Diagnostic(
      SourceLocation(file: "jobs/my job.cfg", line: 1, column: 1),
      "the job has no 'name' and its file name \"my job\" is not a safe output name; "
        + "add name: using ASCII letters, digits, '-', '_' and '.', not starting with '.'")) {
      try JobParser.parse(job("hold: 1"), file: "jobs/my job.cfg")
    }
  }

  /// A file name of safe characters that is too long is told its length:
  /// it was told to use the letters it uses (the hardening sweep).
  @Test static func aLongDefaultNameIsToldItsLength() {
    let long = String(repeating: "L", count: 201)
    #expect(throws: Diagnostic(
      SourceLocation(file: "jobs/\(long).cfg", line: 1, column: 1),
      "the job has no 'name' and its file name \"\(String(repeating: "L", count: 40))…\" has 201 characters; "
        + "an output name has at most 200: add a shorter name:")) {
      try JobParser.parse(job("hold: 1"), file: "jobs/\(long).cfg")
    }
    #expect((try? JobParser.parse(job("hold: 1"), file: "jobs/\(long.dropLast()).cfg"))?.name == String(long.dropLast()))
  }

  /// A step naming a view by 250 000 characters on a screen of 200 views
  /// with ids of 100 (the most an id may have): the error echoes 40 of
  /// them and 20 of the ids, and "did you mean" reads none of either (two
  /// edits cannot bridge their lengths).
  @Test static func aHugeNameAmongManyLongIDsFailsWithAShortMessage() {
    let ids = (1000..<1200).map { "\($0)" + String(repeating: "v", count: 96) }
    let name = String(repeating: "x", count: 250_000)
    let text =
      "screens:\n  a:\n    views:\n" + ids.map { "      - { id: \($0), frame: [0, 0, 10, 10] }\n" }.joined()
      + "  b:\n    views:\n      - { id: w, frame: [0, 0, 10, 10] }\n"
      + "timeline:\n  - push: { to: b, transition: magic-move, element: { from: \(name), to: w } }\n"
    let shown = ids.prefix(20).map { "\($0.prefix(40))…" }.joined(separator: ", ")
    #expect(throws: Diagnostic(
      SourceLocation(file: "job.cfg", line: 208, column: 61),
      "timeline[0].push.element.from: screen 'a' has no view '\(name.prefix(40))…'; expected one of: \(shown) and 180 more")) {
      try JobParser.parse(bytes: Array(text.utf8), file: "job.cfg", transitions: TestCatalog.all)
    }
  }

  /// zoom-expand zooms the tapped control: without `element` it cuts, and says so.
  @Test static func aZoomExpandWithoutElementIsNoted() throws {
    let text = """
      canvas: { size: 60x100, scale: 1, fps: 10 }
      screens:
        a: { views: [ { id: b1, frame: [5, 5, 20, 20] } ] }
        b: { views: [ { id: b2, frame: [0, 0, 60, 40] } ] }
      timeline:
        - push: { to: b, transition: zoom-expand }
        - pop: { transition: zoom-expand, element: { from: b2, to: b1 } }
      """
    let spec = try JobParser.parse(text, file: "z.cfg")
    #expect(spec.notes.map(\.description) == [
      "z.cfg:6:5: note: timeline[0].push: zoom-expand without element cuts to 'b': it zooms the tapped control "
        + "into the new screen; give element: { from: VIEW ID, to: VIEW ID }"
    ])
  }

  /// A written canvas or stage size whose points at the canvas scale are no
  /// whole number of pixels is drawn rounded to the nearest, and a note says
  /// so: 390.5 points at 3x drew a 1172-pixel canvas without a word.
  @Test static func aSizeOfNoWholePixelsIsNoted() throws {
    let text = """
      canvas: { size: 390.5x844, scale: 3 }
      stage: { device: none, size: [402.5, 900.5] }
      screens:
        a: {}
      timeline:
        - hold: 1
      """
    let spec = try JobParser.parse(text, file: "f.cfg")
    let drawn = spec.canvas.pixelWidth == 1172 && spec.framePixelWidth == 1208 && spec.framePixelHeight == 2702
    #expect(drawn)
    #expect(spec.notes.map(\.description) == [
      "f.cfg:1:17: note: canvas.size: 390.5x844 points at scale 3 are 1171.5x2532 pixels; the canvas is 1172x2532 pixels, "
        + "each side rounded to the nearest whole pixel",
      "f.cfg:2:30: note: stage.size: 402.5x900.5 points at scale 3 are 1207.5x2701.5 pixels; the stage is 1208x2702 pixels, "
        + "each side rounded to the nearest whole pixel",
    ])
    // Half points at 2x are whole pixels: no note of this kind.
    let whole = try JobParser.parse("canvas: { size: 390.5x844.5, scale: 2 }\nscreens: { a: {} }\ntimeline: [ { hold: 1 } ]\n", file: "w.cfg")
    let noted = whole.notes.contains { $0.message.contains("rounded to the nearest whole pixel") }
    #expect(!noted)
  }

  /// A partial curl's step back uncurls its forward's page: the `mirror:`,
  /// `reveal` and `radius` it writes otherwise are not used, and a note
  /// says so; the step takes the forward's (the renderer draws one roll).
  @Test static func aCurlsStepBackOfAnotherShapeIsNoted() throws {
    let text = """
      canvas: { size: 60x100, scale: 1, fps: 10 }
      screens:
        a: {}
        b: {}
      timeline:
        - present: { to: b, transition: partial-curl, reveal: 40 }
        - dismiss: { mirror: true, reveal: 30, radius: 20, duration: 0.3 }
        - push: { to: b, transition: partial-curl, mirror: true }
        - pop: { mirror: true, radius: 100 }
      """
    let spec = try JobParser.parse(text, file: "c.cfg")
    #expect(spec.notes.map(\.description) == [
      "c.cfg:7:5: note: timeline[1].dismiss: reveal, radius, mirror are not used: a partial-curl's dismiss uncurls the "
        + "page its present curled, as UIKit runs that curl back, with the present's reveal, radius and mirror",
      "c.cfg:9:5: note: timeline[3].pop: radius is not used: a partial-curl's pop uncurls the "
        + "page its push curled, as UIKit runs that curl back, with the push's reveal, radius and mirror",
    ])
    let steps = spec.timeline.compactMap { if case .transition(let step) = $0 { step } else { nil } }
    #expect(steps[1].mirror != true && steps[3].mirror == true)
    #expect(steps[1].parameters.values["reveal"] == .number(40) && steps[1].parameters.values["radius"] == nil)
    #expect(steps[1].parameters.values["duration"] == .number(0.3))
  }
}
