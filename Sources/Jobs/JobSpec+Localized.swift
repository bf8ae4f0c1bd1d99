import Geometry
import Transitions

// A job with locales is rendered once per locale, as its own job: named
// `<name>.<locale>` (so its outputs are `<name>.<locale>.<ext>` and its cache
// record, shard, report row and gallery entry are its own), its text keys
// resolved, `{locale}` in its image paths replaced, its labels shaped in
// the locale's language and laid out in its direction (natural alignment
// is the right edge in a right-to-left locale).

extension JobSpec {
  /// The jobs this spec renders: one per locale and appearance, or itself.
  public func localizedJobs(only wanted: [String]? = nil) -> [JobSpec] {
    let looks = appearances.isEmpty ? [self] : appearances.map { inAppearance($0) }
    guard let localization, !localization.locales.isEmpty else { return looks }
    let locales = localization.locales.filter { wanted?.contains($0) ?? true }
    return locales.flatMap { locale in
      looks.map { look in
        // `<name>.<locale>.<appearance>`: the locale goes before the appearance.
        var spec = look.localized(to: locale, renamed: false)
        spec.name = look.appearance.map { "\(name).\(locale).\($0)" } ?? "\(name).\(locale)"
        return spec
      }
    }
  }

  /// Xcode's name of the job's device family for a String Catalog's device
  /// variations: `ipad` on an iPad (`CanvasSpec.layoutDevice`: the
  /// canvas's, or the one a stage shows it in), else `iphone`.
  public var deviceFamily: String {
    canvas.layoutDevice?.preset.idiom == .pad ? "ipad" : "iphone"
  }

  /// This job as `locale` renders it (see the file's comment). A key the
  /// locale lacks takes the source language's string and a note says so.
  public func localized(to locale: String, renamed: Bool = true) -> JobSpec {
    var spec = self
    spec.localeProblem = argumentsProblem(locale: locale)
    spec.localization = nil
    spec.locale = locale
    // The drawn status bar's clock in the locale's digits, as iOS draws it (٩:٤١ in ar-EG, ۹:۴۱ in fa).
    if let time = spec.canvas.statusBar?.time { spec.canvas.statusBar?.time = Localization.localDigits(time, locale: locale) }
    if renamed { spec.name = "\(name).\(locale)" }
    let rightToLeft = Localization.isRightToLeft(locale)
    for s in spec.screens.indices {
      if let image = spec.screens[s].image { spec.screens[s].image = image.localized(to: locale) }
      for v in spec.screens[s].views.indices {
        var view = spec.screens[s].views[v]
        if let image = view.image { view.image = image.localized(to: locale) }
        if let key = view.textKey, let text = resolved(key, locale: locale, into: &spec.notes) { view.text = text }
        if view.text != nil {
          view.textStyle.language = locale
          view.textStyle.rightToLeftLayout = rightToLeft
        }
        spec.screens[s].views[v] = view
      }
    }
    if var stage = spec.stage {
      if var caption = stage.caption {
        if let key = caption.textKey, let text = resolved(key, locale: locale, into: &spec.notes) { caption.text = text }
        caption.style.language = locale
        caption.style.rightToLeftLayout = rightToLeft
        stage.caption = caption
      }
      for c in stage.captionChanges.indices {
        if let key = stage.captionChanges[c].textKey, let text = resolved(key, locale: locale, into: &spec.notes) {
          stage.captionChanges[c].text = text
        }
      }
      spec.stage = stage.replacing("{locale}", with: locale)
    }
    spec.assets = JobSpec.assets(of: spec.screens, stage: spec.stage)
    spec.mirror(rightToLeft: rightToLeft)
    spec.notes += spec.gestureAgainstMotionNotes()
    return spec
  }

  /// Throws `localeProblem`: a string of this locale's that cannot take its `args`.
  public func checkLocale() throws(Diagnostic) {
    if let localeProblem { throw localeProblem }
  }

  /// The first key whose string in `locale` cannot take its `args` (a
  /// `%lld` given text, too few, `%s`, a text past what a label holds),
  /// as an error at those `args`; else the first whose text drawn (with
  /// its arguments, or as written) has more than
  /// `JobDecoder.maximumTextLength` characters, at the key: a table's
  /// strings may be longer, the text a label draws not. Nil when none.
  func argumentsProblem(locale: String) -> Diagnostic? {
    guard let localization else { return nil }
    let place = localization.stringsPlace
    for key in textKeys {
      guard let argsLocation = key.argsLocation, let argsPath = key.argsPath,
        let found = localization.string(key.key, locale: locale)
      else { continue }
      do {
        _ = try found.value.text(args: key.args, locale: locale, language: found.language, device: deviceFamily)
      } catch {
        return Diagnostic(
          argsLocation,
          "\(argsPath): the '\(locale)' string of \(YAMLNode.singleQuoted(key.key)) in \(place) "
            + "(\(YAMLNode.quoted(found.value.asWritten(device: deviceFamily)))) cannot take them: \(error.message)")
      }
    }
    // A string with `args` was filled in above, and filling in stops past the limit.
    let limit = JobDecoder.maximumTextLength
    for key in textKeys {
      let found = localization.string(key.key, locale: locale)
      if found != nil, !key.args.isEmpty { continue }
      let written = found?.value.asWritten(device: deviceFamily) ?? key.key
      // Drawn as written (`resolved`), each `%%` one character: over twice the limit is too long as it stands.
      let length = written.unicodeScalars.count
      guard length > limit, found == nil || length > 2 * limit || Localization.asWritten(written).unicodeScalars.count > limit
      else { continue }
      return Diagnostic(
        key.location,
        "\(key.path): the '\(locale)' text of \(YAMLNode.singleQuoted(key.key)) in \(place) "
          + "(\(YAMLNode.quoted(written))) has more than the \(limit) characters a label draws")
    }
    return nil
  }

  /// Every `text: { key: … }` of the job: its views', its captions'.
  var textKeys: [TextKey] {
    screens.flatMap { $0.views.compactMap(\.textKey) } + [stage?.caption?.textKey].compactMap { $0 }
      + (stage?.captionChanges.compactMap(\.textKey) ?? [])
  }

  /// The text `key` shows in `locale`: its string with its `args` filled
  /// in, or as written (a format string without `args`, with a note);
  /// a note when the locale lacks it and the source language's is used.
  func resolved(_ key: TextKey, locale: String, into notes: inout [JobNote]) -> String? {
    guard let localization else { return nil }
    let place = localization.stringsPlace
    guard let found = localization.string(key.key, locale: locale) else {
      // Only other languages' tables have it (inline tables; a catalog lists every key in its source language).
      notes.append(
        JobNote(
          key.location,
          "\(key.path): key \(YAMLNode.singleQuoted(key.key)) has no '\(locale)' string in \(place); the source language "
            + "'\(localization.sourceLanguage)' has none either, so the key itself is drawn, as iOS draws it"))
      return key.key
    }
    // The locale's job fails when its string cannot take the arguments (`localeProblem`).
    let written = found.value.asWritten(device: deviceFamily)
    // Longer than a label draws even with each `%%` one character: without
    // `args` the locale's job fails (`argumentsProblem`), so it is not looked into.
    let short = written.unicodeScalars.count <= 2 * JobDecoder.maximumTextLength
    if key.args.isEmpty, !short { return written }
    let specifier = short ? Localization.formatSpecifier(in: written) : nil
    let formatted =
      key.args.isEmpty && specifier != nil
      ? nil
      // With no specifier, `%%` is still a percent sign (Xcode writes SwiftUI's "100%" as "100%%").
      : try? found.value.text(args: key.args, locale: locale, language: found.language, device: deviceFamily)
    if formatted == nil, let specifier {
      notes.append(
        JobNote(
          key.location,
          "\(key.path): the '\(locale)' string of \(YAMLNode.singleQuoted(key.key)) has the format specifier '\(specifier)', "
            + "drawn as written: an app fills it in at run time (give the values with text: { key: \(key.key), args: [...] })"))
    }
    if found.fellBack {
      // A catalog key with no string in its source language either is its own text, as iOS draws it.
      let source = localization.sourceLanguage
      let fallback =
        found.value == .text(key.key) ? "the source language '\(source)' has none either, so the key itself is drawn, as iOS draws it"
        : "using the source language '\(source)'"
      notes.append(
        JobNote(key.location, "\(key.path): key \(YAMLNode.singleQuoted(key.key)) has no '\(locale)' string in \(place); \(fallback)"))
    }
    return formatted ?? (short ? Localization.asWritten(written) : written)
  }

  /// A right-to-left layout: views at x move to W − x − width (unless
  /// `mirror: false`), navigation steps are drawn mirrored (push from the
  /// left, back-swipe from the right edge) unless `mirror: false`, custom
  /// transitions only with `mirror: true`; `leading`/`trailing` gestures
  /// point the locale's way, `left`/`right` mirror with a mirrored step; a touch, and a transition's tap point or
  /// origin button, land on the view under them wherever it went (a touch
  /// where a gesture's finger starts turns with the gesture). A
  /// left-to-right layout (a locale's, or a job's without strings) moves no
  /// view and draws mirrored only the steps that say `mirror: true`, their
  /// touch, tap point and origin button still on the view under them.
  /// A screen shown in a card narrower than the screen is laid out in the
  /// card (`ScreenSpec.cardWidth`), and a step running in one has it for
  /// its space (`TransitionStep.container`): both mirror in the card.
  mutating func mirror(rightToLeft: Bool) {
    let laidOut = screens
    for s in screens.indices where rightToLeft {
      let width = screens[s].cardWidth ?? canvas.size.width
      for v in screens[s].views.indices where screens[s].views[v].mirrors {
        screens[s].views[v].frame.origin.x = width - screens[s].views[v].frame.maxX
      }
    }
    for i in timeline.indices {
      guard case .transition(var step) = timeline[i] else { continue }
      let width = step.container?.width ?? canvas.size.width
      let mirrored = step.mirror ?? (rightToLeft && Localization.mirrorsByDefault(step.transition))
      step.mirror = mirrored
      // The renderer draws a mirrored step as its left-to-right self, flipped,
      // and a gesture with it: `left`/`right` mirror as the touch and the
      // screen do (a back-swipe written `right` for English drags to the left
      // in Arabic, with the page), and `leading`/`trailing` are already the
      // left-to-right self's. An unmirrored step in RTL turns leading to the right.
      var turned = false
      if var gesture = step.gesture, let travel = gesture.travel, rightToLeft, !mirrored, gesture.isLayoutRelative {
        gesture.travel = Size(width: -travel.width, height: travel.height)
        step.gesture = gesture
        turned = true
      }
      let from = laidOut.first { $0.name == step.from }
      // A touch on an unwritten tap or origin is on the transition's own
      // default geometry, which stays where it is (as the values below do).
      let onDefault = step.touchParameter.map { step.parameters.values[$0] == nil } ?? false
      if let touch = step.touch, rightToLeft || mirrored, !onDefault {
        // A finger starting at the edge the gesture drags from turns with the
        // gesture (a step drawn mirrored flips both); any other on its view.
        step.touch =
          step.touchStartsGesture
          ? Point(x: turned ? width - touch.x : touch.x, y: touch.y)
          : JobSpec.touch(touch, on: from, width: width, rightToLeft: rightToLeft, drawnMirrored: mirrored)
      }
      // Where the transition starts (tap-spread's `tap`, a circle's `origin`
      // button) is where the user taps, so it goes where the tap goes. A
      // value written as its default is the default: the seed's own
      // geometry, kept as an unwritten one is (`origin: [0, 0, 100, 100]`
      // is corner-reveal's top-left rect, as no origin is).
      let defaults = Catalog.descriptor(named: step.transition)?.parameters ?? []
      for (name, value) in step.parameters.values where rightToLeft || mirrored {
        if let given = defaults.first(where: { $0.name == name })?.value, given == value { continue }
        switch value {
        case .point(let point):
          step.parameters.values[name] = .point(JobSpec.touch(point, on: from, width: width, rightToLeft: rightToLeft, drawnMirrored: mirrored))
        case .rect(let rect):
          let centre = JobSpec.touch(
            Point(x: rect.midX, y: rect.midY), on: from, width: width, rightToLeft: rightToLeft, drawnMirrored: mirrored)
          step.parameters.values[name] = .rect(
            Rect(x: centre.x - rect.width / 2, y: rect.minY, width: rect.width, height: rect.height))
        default: break
        }
      }
      // `touch: true` on a tap or origin stays on it, wherever it went.
      switch step.touchParameter.flatMap({ step.parameters.values[$0] }) {
      case .point(let point)? where rightToLeft || mirrored: step.touch = point
      case .rect(let rect)? where rightToLeft || mirrored: step.touch = rect.center
      default: break
      }
      timeline[i] = .transition(step)
    }
  }

  /// Where a touch written for the left-to-right layout lands in the
  /// `rightToLeft` one or the left-to-right one: on the view under it (the
  /// topmost of `screen`'s), which a right-to-left layout moved to W − x
  /// unless it is `mirror: false` — so the touch moves with the view the
  /// user taps, whatever the transition's own geometry does. A step drawn
  /// mirrored flips the touch with its frame, so it is given pre-flipped.
  static func touch(_ point: Point, on screen: ScreenSpec?, width: Double, rightToLeft: Bool, drawnMirrored: Bool) -> Point {
    let view = screen?.views.last { (0...$0.frame.width).contains(point.x - $0.frame.minX) && (0...$0.frame.height).contains(point.y - $0.frame.minY) }
    let moves = rightToLeft && (view?.mirrors ?? true)
    return Point(x: moves != drawnMirrored ? width - point.x : point.x, y: point.y)
  }
}

extension ImageSpec {
  /// `{locale}` in the path replaced; the key names the locale, so a file
  /// missing for one locale says which.
  func localized(to locale: String) -> ImageSpec { replacing("{locale}", with: locale) }

  /// `placeholder` (`{locale}`, `{appearance}`) in the path replaced by `value`;
  /// the key names the value.
  func replacing(_ placeholder: String, with value: String) -> ImageSpec {
    var image = self
    image.asset = asset.replacing(placeholder, with: value)
    return image
  }
}

extension AssetReference {
  /// `placeholder` (`{locale}`, `{appearance}`) in the path replaced by `value`;
  /// the key names the value.
  func replacing(_ placeholder: String, with value: String) -> AssetReference {
    guard path.contains(placeholder) else { return self }
    var asset = self
    asset.path = path.replacingAll(placeholder, with: value)
    asset.resolvedPath = resolvedPath.replacingAll(placeholder, with: value)
    asset.key = "\(key) (\(placeholder.dropFirst().dropLast()) '\(value)')"
    return asset
  }
}

extension StageSpec {
  /// `placeholder` in the background image's path replaced by `value`, as
  /// the screens' images take it: a stage image per locale or appearance.
  func replacing(_ placeholder: String, with value: String) -> StageSpec {
    guard case .image(let asset) = background else { return self }
    var stage = self
    stage.background = .image(asset.replacing(placeholder, with: value))
    return stage
  }
}

extension String {
  /// Every `target` replaced by `replacement` (the Jobs module has no Foundation string API).
  func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
