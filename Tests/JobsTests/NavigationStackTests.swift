// Timeline semantics: the screen on display, the navigation stack, and what
// a pop or dismiss inherits from the step it undoes. Also the canvas and
// output forms not covered by the full example, and load(path:).

import Geometry
import Motion
import Testing
import Transitions

@testable import Jobs

#if canImport(Glibc)
import Glibc
#endif

@Suite enum NavigationStackTests {
  static let screens = """
    screens:
      list:
        views: [ { id: cell, frame: [0, 100, 393, 60] }, { id: icon, frame: [8, 108, 44, 44] } ]
      detail:
        views: [ { id: hero, frame: [0, 0, 393, 393] } ]
      sheet:

    """

  static func parse(_ text: String) throws -> JobSpec {
    try JobParser.parse(bytes: Array(text.utf8), file: "nav.cfg", transitions: TestCatalog.all)
  }

  static func steps(_ job: JobSpec) -> [TransitionStep] {
    job.timeline.compactMap { if case .transition(let step) = $0 { step } else { nil } }
  }

  @Test static func stackOfPushesAndPresents() throws {
    let job = try parse(
      screens + """
        timeline:
          - hold: 0.5
          - push: { to: detail, transition: circle-spread, duration: 0.3 }
          - present: { from: detail, to: sheet, transition: sheet-up }
          - dismiss:
          - pop: { transition: magic-move, element: { from: hero, to: cell } }
        """)
    let s = steps(job)
    #expect(s.map(\.operation) == [.push, .present, .dismiss, .pop])
    #expect(s.map(\.from) == ["list", "detail", "sheet", "detail"])
    #expect(s.map(\.to) == ["detail", "sheet", "detail", "list"])
    #expect(s.map(\.transition) == ["circle-spread", "sheet-up", "sheet-up", "magic-move"])
    // A pop with another transition inherits nothing from the push.
    #expect(s[3].parameters == TransitionParameters(["element": .element(from: "hero", to: "cell")]))
    #expect(s[2].parameters == TransitionParameters())
  }

  @Test static func popSwapsAnInheritedElement() throws {
    let job = try parse(
      screens + """
        timeline:
          - push: { to: detail, transition: magic-move, element: { from: icon, to: hero }, tint: systemRed }
          - pop: { tint: "#00FF00" }
        """)
    let s = steps(job)
    #expect(s[0].parameters.element() ?? ("", "") == ("icon", "hero"))
    #expect(s[1].parameters.element() ?? ("", "") == ("hero", "icon"))
    #expect(s[1].parameters.values["tint"] == .color(.init(red8: 0, green8: 255, blue8: 0)))
    #expect(s[1].transition == "magic-move")
  }

  /// `push` and `pop` are one transition under two names (README's table:
  /// `push` / `pop`), so a pop that writes `transition: pop` after a push
  /// of `transition: push`, or the other way round, is its push's and
  /// inherits its parameters and `mirror:`: it took the defaults, 0.5 s for
  /// the push's 1.2 and a 0.1 dimming for 0.5, unmirrored.
  @Test static func popNamingPushByItsOtherNameStillInherits() throws {
    let job = try JobParser.parse(
      """
      screens: { a: {}, b: {}, c: {} }
      timeline:
        - push: { to: b, transition: push, duration: 1.2, dimming: 0.5, mirror: true }
        - pop: { transition: pop }
        - push: { to: c, transition: pop, duration: 0.8 }
        - pop: { transition: push, dimming: 0.3 }
      """, file: "nav.cfg")
    let s = steps(job)
    #expect(s.map(\.transition) == ["push", "push", "pop", "pop"])
    #expect(s[1].parameters == s[0].parameters)
    #expect(s[1].mirror == true)
    #expect(s[3].parameters == TransitionParameters(["duration": .number(0.8), "dimming": .number(0.3)]))
    #expect(Timeline(spec: job).frameCount == 240)
  }

  @Test static func popNamingTheSameTransitionStillInherits() throws {
    let job = try parse(
      screens + """
        timeline:
          - push: { to: detail, transition: circle-spread, origin: [1, 2, 3, 4], curve: linear }
          - pop: { from: detail, to: list, transition: circle-spread, curve: "cubic-bezier(0.2, 0, 0, 1)" }
        """)
    let s = steps(job)
    #expect(s[1].parameters.rect("origin", default: .zero) == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(s[1].parameters.curve(default: .linear) == .timing(TimingFunction(controlPoints: 0.2, 0, 0, 1)))
  }

  /// A pop inherits the push's `delay` unless a finger drives it (a
  /// gesture tracks from its first instant), and the push's `mirror:`
  /// unless it says its own.
  @Test static func anInteractivePopTakesNoDelayAndEveryPopTheMirror() throws {
    let job = try parse(
      screens + """
        timeline:
          - push: { to: detail, transition: circle-spread, delay: 0.2, mirror: true }
          - pop: {}
          - push: { to: detail, transition: circle-spread, delay: 0.2, mirror: true }
          - pop: { gesture: { progress: [0, 0.6] } }
          - push: { to: detail, transition: circle-spread, delay: 0.2 }
          - pop: { gesture: { progress: [0, 0.6] }, delay: 0.1, mirror: true }
        """)
    let s = steps(job)
    #expect(s[1].parameters.values["delay"] == .number(0.2) && s[1].mirror == true)
    #expect(s[3].parameters.values["delay"] == nil && s[3].mirror == true)
    #expect(s[5].parameters.values["delay"] == .number(0.1) && s[5].mirror == true)
    #expect(s[4].mirror != true)
    // Another transition than the push's inherits neither its parameters nor its mirror.
    let other = steps(
      try parse(
        screens + """
          timeline:
            - push: { to: detail, transition: circle-spread, mirror: true }
            - pop: { transition: magic-move }
          """))
    #expect(other[1].mirror != true)
  }

  @Test static func popElementIsOrientedToItsOwnStep() throws {
    // In a pop's own element, `from` is on the screen being left.
    #expect(throws: Diagnostic(
      SourceLocation(file: "nav.cfg", line: 9, column: 29),
      "timeline[1].pop.element.from: screen 'detail' has no view 'icon'; expected one of: hero")) {
      try parse(
        screens + """
          timeline:
            - push: { to: detail, transition: magic-move }
            - pop: { element: { from: icon, to: hero } }
          """)
    }
  }

  @Test static func laterFromMustBeOnDisplay() {
    #expect(throws: Diagnostic(
      SourceLocation(file: "nav.cfg", line: 9, column: 19),
      "timeline[1].push.from: 'list' is not on display; 'detail' is")) {
      try parse(
        screens + """
          timeline:
            - push: { to: detail, transition: circle-spread }
            - push: { from: list, to: sheet, transition: circle-spread }
          """)
    }
  }

  @Test static func canvasForms() throws {
    let timeline = "screens: { a: }\ntimeline: [hold: 1]\n"
    var job = try parse("canvas: { size: [390, 844] }\n" + timeline)
    #expect(job.canvas.size == Size(width: 390, height: 844))
    #expect(job.canvas.scale == 2)
    job = try parse("canvas: { device: iphone-se, size: 320 x 568.5 }\n" + timeline)
    #expect(job.canvas.size == Size(width: 320, height: 568.5))
    #expect(job.canvas.scale == 2)
    job = try parse("canvas: { device: ipad-11, scale: 1, fps: 24.0, background: systemTeal }\n" + timeline)
    #expect(job.canvas.size == Size(width: 834, height: 1194))
    #expect(job.canvas.pixelWidth == 834)
    #expect(job.canvas.fps == 24)
    #expect(job.canvas.background == .init(red8: 48, green8: 176, blue8: 199))
  }

  @Test static func outputForms() throws {
    let timeline = "screens: { a: }\ntimeline: [hold: 1]\n"
    let job = try parse("output: { formats: gif, gif: { width: 360, fps: 30 } }\n" + timeline)
    #expect(job.output == OutputSpec(formats: [.gif], gif: GIFSettings(width: 360, fps: 30)))
  }

  @Test static func loadsAFile() throws {
    let path = "/tmp/transvid-jobs-test-\(getpid()).cfg"
    let text = "name: from-disk\nscreens: { a: }\ntimeline: [hold: 1]\n"
    let stream = try #require(fopen(path, "wb"))
    _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, stream) }
    fclose(stream)
    defer { unlink(path) }
    let job = try JobParser.load(path: path)
    #expect(job.name == "from-disk")
    #expect(job.file == path)
  }

  @Test static func directoryIsUnreadable() {
    #expect(throws: Diagnostic(SourceLocation(file: "/tmp", line: 1, column: 1), "cannot read job file: Is a directory")) {
      try JobParser.load(path: "/tmp")
    }
  }
}
