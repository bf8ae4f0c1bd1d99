// What a job's timeline draws and keeps besides its screens
// (`FrameRenderer+Resting.swift`, `Stage.swift`): each step draws the
// picture it leaves on display, its last frame, a canvas, before the first
// frame after it, and the holds after it keep that picture when it is a
// resting composite (a step that ends on its plain screen leaves nothing
// to keep: a long timeline of pushes holds no more than its screens); a
// present over the screen
// behind it (a sheet, a card, a curl: `Transition.restsOverItsScreen`) and
// a push inside its card draw their resting composite too, once more
// without each view the screen flies, and keep them for the steps after
// them. A stage caption draws a strip, the stage's width by the caption's
// rows, for each text it shows, and keeps them all. And a step drawn
// mirrored (`mirror: true`, or a right-to-left locale's navigation step or
// sheet) keeps a flipped copy of each of its screens, and with the
// screenshots' own status bar (`canvas.statusBar: N`) each screen a step
// shows is kept once more without it (`ScreenSnapshots`): a job whose every
// screen both did held four times its screens.
//
// None of it grows with the screens: a step of no duration costs no frame,
// and a 1 MiB job file holds 20 000 of them, so 1000 pushes inside a sheet
// on a 2000-point canvas asked for 16 GB, and 4000 steps of no duration
// drew for two minutes before the first frame. So they are counted with the
// screens: `JobDecoder.checkLayers` and `checkDrawing` hold them to the
// same limits, blamed on the step, hold or caption that passes them, and a
// batch's plan adds what they draw to the job's cost (`drawnPixels`).

import Transitions

extension JobSpec {
  /// What one step, hold or caption draws and keeps, in pixels at the canvas scale.
  struct StepPictures {
    var drawn: Double
    var held: Double
    var location: SourceLocation
    /// Its key path (`timeline[3]`, `timeline[3].caption`, `stage.caption`).
    var path: String

    /// The first of `pictures` at which `total` and their `pixels` so far
    /// come to more than `limit`.
    static func first(
      of pictures: [StepPictures], _ pixels: Swift.KeyPath<StepPictures, Double>, after total: Double, over limit: Int
    ) -> StepPictures? {
      var total = total
      return pictures.first { picture in
        total += picture[keyPath: pixels]
        return total > Double(limit)
      }
    }
  }

  /// The pictures of the timeline's steps and the stage's captions, in
  /// timeline order, each step's transition configured from `transitions`.
  func stepPictures(transitions: [TransitionDescriptor] = Catalog.all) -> [StepPictures] {
    let canvas = Double(self.canvas.pixelWidth) * Double(self.canvas.pixelHeight)
    let flown = flownViews
    var flownOn: [String: Int] = [:]
    for screen in screens {
      flownOn[screen.name] = screen.views.count { $0.id.map { flown.contains("\(screen.name)/\($0)") } ?? false }
    }
    var pictures: [StepPictures] = []
    // A strip per caption text, the first included.
    var strip = 0.0
    var texts: Set<String> = []
    var captions: [Int: [CaptionChange]] = [:]
    if let stage, let caption = stage.caption {
      let scale = Double(self.canvas.scale)
      let rows = min(stage.size.height, caption.height + 2 * StageLayout.captionGap(caption)) * scale
      strip = (stage.size.width * scale).rounded() * rows.rounded(.up)
      texts.insert(caption.text)
      pictures.append(StepPictures(drawn: strip, held: strip, location: caption.location, path: "stage.caption"))
      for change in stage.captionChanges { captions[change.step, default: []].append(change) }
    }
    // Whether what is on display is a resting composite, and per forward
    // step not undone whether what it started from was one.
    var composite = false
    var below: [(composite: Bool, operation: TransitionOperation)] = []
    // Whether the last step's picture, a composite, is yet to be kept by a hold.
    var unkept = false
    // Copies of screens kept for the steps that show them: flipped, and without the status bar's strip.
    let rightToLeft = (localization?.locales ?? locale.map { [$0] } ?? []).contains(where: Localization.isRightToLeft)
    let stripped = self.canvas.shownStatusBar.map { !$0.isDrawn && $0.height > 0 } ?? false
    // A screen shown in a card narrower than the screen has no strip to take off.
    let inCard = Set(screens.filter { $0.cardWidth != nil }.map(\.name))
    var copied: Set<String> = []
    for (i, item) in timeline.enumerated() {
      switch item {
      case .hold(_, let location):
        if unkept && composite { pictures.append(StepPictures(drawn: 0, held: canvas, location: location, path: "timeline[\(i)]")) }
        unkept = false
      case .transition(let step):
        let mirrored = step.mirror ?? (rightToLeft && Localization.mirrorsByDefault(step.transition))
        var copies = 0.0
        for name in [step.from, step.to] {
          if mirrored && copied.insert("mirrored \(name)").inserted { copies += 1 }
          if stripped && !inCard.contains(name) && copied.insert("stripped \(mirrored) \(name)").inserted { copies += 1 }
        }
        // A cancelled step leaves the display as it was and draws nothing of its own.
        guard !step.isCancelled else {
          if copies > 0 {
            pictures.append(StepPictures(drawn: 0, held: copies * canvas, location: step.location, path: "timeline[\(i)]"))
          }
          break
        }
        var drawn = canvas
        var held = copies * canvas
        if step.operation.isReverse {
          let undone = step.operation == .dismiss ? TimelineStack.dismissed(by: below.map(\.operation)) : 1
          composite = below.dropLast(undone - 1).last?.composite ?? false
          below.removeLast(Swift.min(undone, below.count))
        } else {
          let rests =
            (composite && step.operation == .push)
            || (transitions.first { $0.name == step.transition }?.make(step.parameters).restsOverItsScreen ?? false)
          below.append((composite, step.operation))
          if rests {
            let resting = canvas * Double(1 + (flownOn[step.to] ?? 0))
            drawn += resting
            held += resting
          }
          composite = rests
        }
        pictures.append(StepPictures(drawn: drawn, held: held, location: step.location, path: "timeline[\(i)]"))
        unkept = true
      }
      for change in captions[i] ?? [] where texts.insert(change.text).inserted {
        pictures.append(StepPictures(drawn: strip, held: strip, location: change.location, path: "timeline[\(i)].caption"))
      }
    }
    return pictures
  }
}
