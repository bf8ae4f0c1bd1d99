// Screens with images and labels through ScreenBuilder: where an image lands
// for each content mode, screenshots under views, placeholders, labels and
// the navigation bar, sampled pixel by pixel. Images are synthetic (Jobs
// does not decode files; the runner's AssetLoader does).

import Geometry
import Jobs
import Raster
import Testing
import Transitions

@testable import Rendering

@Suite enum SceneImageTests {
  static let red = Pixel(r: 255, g: 0, b: 0, a: 255)
  static let green = Pixel(r: 0, g: 255, b: 0, a: 255)
  static let white = Pixel(r: 255, g: 255, b: 255, a: 255)

  /// A `size`×`size` image: top half red, bottom half green.
  static func halves(_ size: Int) -> Bitmap {
    var b = Bitmap(width: size, height: size, fill: red)
    for y in size / 2..<size {
      for x in 0..<size { b[x, y] = green }
    }
    return b
  }

  /// The screen `home`, each view with an id taken as one a transition flies (its own image made).
  static func snapshot(_ yaml: String, assets: [String: Bitmap], fonts: FontSet = .empty) throws -> ScreenSnapshot {
    let spec = try JobParser.parse(yaml, file: "jobs/t.cfg")
    let home = try #require(spec.screens.first { $0.name == "home" })
    let flown = Set(home.views.compactMap { $0.id.map { "home/\($0)" } })
    return ScreenBuilder(spec: spec, assets: assets, fonts: fonts).snapshot(of: home, shared: flown)
  }

  static func view(_ extra: String, canvas: String = "{ size: 100x100, scale: 1 }") -> String {
    """
    canvas: \(canvas)
    screens:
      home:
        background: white
        views:
          - { id: photo, frame: [10, 20, 80, 40], image: a.png\(extra) }
    timeline: [hold: 1]
    """
  }

  /// A screenshot on a screen shown in a card narrower than the screen
  /// fills the card, as a screenshot of a form sheet's view controller is
  /// the card's size: a square red-over-green shot in a 100 × 160 card shows
  /// its halves there, 80 pt each. It filled the whole 200 × 400 screen and
  /// the card showed its top-left 100 × 160, red only.
  @Test static func aScreenshotInACardFillsTheCard() throws {
    let spec = try JobParser.parse(
      """
      canvas: { size: 200x400, scale: 1, fps: 10 }
      screens:
        a: { background: "#0000FF" }
        home: { image: a.png }
      timeline:
        - present: { to: home, transition: sheet, cardWidth: 100, cardHeight: 160, duration: 0.1 }
        - hold: 0.2
      """, file: "jobs/t.cfg")
    let renderer = FrameRenderer(spec: spec, assets: ["jobs/a.png": halves(40)])
    let frame = renderer.frame(renderer.frameCount - 1, width: 200, height: 400)
    // The card spans x 50…150, y 120…280.
    #expect(frame[100, 130] == red && frame[100, 195] == red && frame[100, 205] == green && frame[100, 270] == green)
    #expect(frame[20, 200] == frame[20, 10] && frame[180, 300] == frame[20, 10])
  }

  /// A screen without `background` shows the canvas's: black unless the
  /// canvas names one, in either appearance (README said neither).
  @Test static func aScreenWithoutBackgroundShowsTheCanvas() throws {
    let black = Pixel(r: 0, g: 0, b: 0, a: 255)
    for (canvas, appearance, pixel) in [
      ("{ size: 10x10, scale: 1 }", "light", black), ("{ size: 10x10, scale: 1 }", "dark", black),
      ("{ size: 10x10, scale: 1, background: \"#FF0000\" }", "light", red),
    ] {
      let yaml = "canvas: \(canvas)\nappearances: [light, dark]\nscreens:\n  home: {}\ntimeline: [hold: 1]\n"
      let spec = try #require(try JobParser.parse(yaml, file: "jobs/t.cfg").localizedJobs().first { $0.appearance == appearance })
      let shot = ScreenBuilder(spec: spec).snapshot(of: spec.screens[0], shared: [])
      #expect(shot.image[5, 5] == pixel, "\(canvas) \(appearance)")
    }
  }

  @Test static func fitLetterboxesInsideTheFrame() throws {
    let shot = try snapshot(view(", contentMode: fit"), assets: ["jobs/a.png": halves(40)])
    // 40×40 at x 30…70, y 20…60.
    #expect(shot.image[15, 40] == white)
    #expect(shot.image[85, 40] == white)
    #expect(shot.image[50, 25] == red)
    #expect(shot.image[50, 55] == green)
    #expect(shot.image[31, 25] == red && shot.image[28, 25] == white)
  }

  /// An image view crops a fill to its frame, as `clipsToBounds: true` says.
  @Test static func fillCoversTheFrameAndIsClipped() throws {
    let shot = try snapshot(view(", contentMode: fill"), assets: ["jobs/a.png": halves(40)])
    // Scaled to 80×80 centred on the frame: rows 0…80, cut to 20…60, split at y = 40.
    #expect(shot.image[12, 25] == red)
    #expect(shot.image[88, 35] == red)
    #expect(shot.image[12, 45] == green)
    #expect(shot.image[50, 58] == green)
    // Nothing outside the frame.
    #expect(shot.image[50, 15] == white)
    #expect(shot.image[50, 65] == white)
    // The default mode is fill.
    #expect(try snapshot(view(""), assets: ["jobs/a.png": halves(40)]).image == shot.image)
    #expect(try snapshot(view(", clipsToBounds: true"), assets: ["jobs/a.png": halves(40)]).image == shot.image)
  }

  /// `clipsToBounds: false` draws an image larger than its frame beyond
  /// it, as a bare UIImageView does: a fill of a square in an 80 × 40
  /// frame at y 20…60 covers rows 0…80, and a 60 px image at `center`
  /// covers x 20…80, y 10…70, square even with a `corner`.
  @Test static func anUnclippedImageDrawsBeyondItsFrame() throws {
    let filled = try snapshot(view(", clipsToBounds: false"), assets: ["jobs/a.png": halves(40)]).image
    #expect(filled[50, 2] == red && filled[50, 15] == red && filled[50, 65] == green && filled[50, 78] == green)
    #expect(filled[50, 82] == white && filled[5, 40] == white)
    let centred = try snapshot(view(", contentMode: center, clipsToBounds: false"), assets: ["jobs/a.png": halves(60)]).image
    #expect(centred[50, 12] == red && centred[22, 30] == red && centred[50, 68] == green && centred[78, 65] == green)
    #expect(centred[50, 8] == white && centred[50, 72] == white && centred[18, 40] == white)
    // By default an image view clips to its rounded frame.
    let rounded = try snapshot(view(", contentMode: center, corner: 12"), assets: ["jobs/a.png": halves(60)]).image
    #expect(rounded[50, 15] == white && rounded[50, 65] == white && rounded[10, 20] == white && rounded[50, 25] == red)
    let unclipped = try snapshot(
      view(", contentMode: center, corner: 12, clipsToBounds: false"), assets: ["jobs/a.png": halves(60)]).image
    #expect(unclipped == centred)
  }

  /// A shared element whose image spills over its frame
  /// (`clipsToBounds: false`) flies with what it draws beyond the frame,
  /// as UIKit's snapshot of an unclipped view holds it: a 60 px image at
  /// `center` in a 40 × 40 view reaches 10 pt past each side, in
  /// magic-move's flight and zoom-expand's swell alike. The flying copy
  /// was cut to the frame, so the overflow vanished on the step's first
  /// frame and came back on its last.
  @Test(arguments: ["magic-move", "zoom-expand"]) static func anUnclippedElementFliesWithItsOverflow(transition: String) throws {
    let spec = try JobParser.parse(
      """
      canvas: { size: 100x200, scale: 1, fps: 20 }
      screens:
        a:
          background: white
          views: [{ id: photo, frame: [30, 30, 40, 40], image: a.png, contentMode: center, clipsToBounds: false }]
        b:
          background: white
          views: [{ id: hero, frame: [30, 120, 40, 40], image: a.png, contentMode: center, clipsToBounds: false }]
      timeline:
        - hold: 0.2
        - push: { to: b, transition: \(transition), element: { from: photo, to: hero }, duration: 0.9, curve: linear }
        - hold: 0.2
      """, file: "jobs/t.cfg")
    let renderer = FrameRenderer(spec: spec, assets: ["jobs/a.png": halves(60)])
    if transition == "magic-move" {
      // 0.1 of the way (frame 6, 0.3 s): the view at y 39…79, its image at y 29…89, x 20…80.
      let early = renderer.frame(6, width: 100, height: 200)
      #expect(early[22, 45] == red && early[50, 31] == red && early[78, 85] == green, "\(early[22, 45]) \(early[50, 31])")
      #expect(early[50, 27] == white && early[18, 45] == white)
      // 8/9 of the way (frame 20, 1 s): the view at y 110…150, its image at y 100…160.
      let late = renderer.frame(20, width: 100, height: 200)
      #expect(late[22, 115] == red && late[50, 102] == red && late[78, 158] == green, "\(late[22, 115])")
      #expect(late[50, 98] == white)
    } else {
      // Half way through the settle (frame 13, 0.65 s): at the hero's frame, scaled by 1.05
      // about its centre (50, 140), the image covers x 18.5…81.5, y 108.5…171.5.
      let settling = renderer.frame(13, width: 100, height: 200)
      #expect(settling[22, 120] == red && settling[50, 111] == red && settling[78, 168] == green, "\(settling[22, 120])")
    }
  }

  /// An unclipped view's own image holds what it draws beyond its frame
  /// where the screen shows it, no further: a 2 × 200 px image filling an
  /// 80 × 40 view is 8000 pt tall, and its image is the view's width by
  /// the canvas's 100 pt height (a bitmap of the whole fill would be 640 000 pixels here,
  /// and hundreds of megabytes at 3x on a phone's screen).
  @Test static func anUnclippedViewsImageStopsAtTheScreen() throws {
    let spec = try JobParser.parse(view(", clipsToBounds: false"), file: "jobs/t.cfg")
    let tall = Bitmap(width: 2, height: 200, fill: red)
    let shot = ScreenBuilder(spec: spec, assets: ["jobs/a.png": tall], fonts: .empty).snapshot(of: spec.screens[0], shared: ["home/photo"])
    let photo = try #require(shot.viewImages["photo"])
    #expect(photo.width == 80 && photo.height == 100, "\(photo.width) × \(photo.height)")
    #expect(shot.viewImageExtents["photo"] == Rect(x: 0, y: -20, width: 80, height: 100))
    #expect(photo[40, 2] == red && photo[40, 97] == red)
  }

  @Test static func stretchAndCenter() throws {
    let stretched = try snapshot(view(", contentMode: stretch"), assets: ["jobs/a.png": halves(40)])
    #expect(stretched.image[11, 21] == red && stretched.image[88, 38] == red)
    #expect(stretched.image[11, 58] == green && stretched.image[88, 42] == green)
    // Centre: a 20 px image at scale 1 is 20 pt, at x 40…60, y 30…50.
    let centred = try snapshot(view(", contentMode: center"), assets: ["jobs/a.png": halves(20)])
    #expect(centred.image[50, 35] == red && centred.image[50, 45] == green)
    #expect(centred.image[35, 35] == white && centred.image[50, 25] == white)
    // At its pixels ÷ the canvas scale, as README says: 20 px at scale 2 is 10 pt, x 45…55, y 35…45.
    let spec = try JobParser.parse(view(", contentMode: center", canvas: "{ size: 100x100, scale: 2 }"), file: "jobs/t.cfg")
    let builder = ScreenBuilder(spec: spec, assets: ["jobs/a.png": halves(20)], fonts: .empty)
    let small = builder.snapshot(of: spec.screens[0], shared: []).image
    #expect(small[100, 72] == red && small[100, 88] == green)
    #expect(small[88, 80] == white && small[112, 80] == white && small[100, 68] == white)
  }

  @Test static func cornerRoundsTheImage() throws {
    let shot = try snapshot(view(", corner: 12"), assets: ["jobs/a.png": halves(40)])
    #expect(shot.image[10, 20] == white)
    #expect(shot.image[14, 30] == red)
    #expect(shot.image[89, 59] == white)
  }

  /// A view a transition flies has its own image, the view alone; one that
  /// no transition flies keeps only its frame (its image, a bitmap of its
  /// whole frame, was held for every view with an id: 270 MB for an
  /// 8192-point one).
  @Test static func viewImageIsTheViewAlone() throws {
    let spec = try JobParser.parse(view(", contentMode: stretch", canvas: "{ size: 100x100, scale: 2 }"), file: "jobs/t.cfg")
    let builder = ScreenBuilder(spec: spec, assets: ["jobs/a.png": halves(40)], fonts: .empty)
    #expect(builder.snapshot(of: spec.screens[0], shared: []).viewImages.isEmpty)
    let shot = builder.snapshot(of: spec.screens[0], shared: ["home/photo"])
    let photo = try #require(shot.viewImages["photo"])
    #expect(photo.width == 160 && photo.height == 80)
    #expect(photo[5, 5] == red && photo[150, 75] == green)
    #expect(shot.viewFrames["photo"] == Rect(x: 10, y: 20, width: 80, height: 40))
  }

  @Test static func screenshotFillsOrFitsTheScreenUnderTheViews() throws {
    func screen(_ mode: String) throws -> Bitmap {
      try snapshot(
        """
        canvas: { size: 100x200, scale: 1 }
        screens:
          home:
            background: white
            image: shot.png
            contentMode: \(mode)
            views: [ { frame: [0, 190, 10, 10], color: "#0000FF" } ]
        timeline: [hold: 1]
        """, assets: ["jobs/shot.png": halves(100)]
      ).image
    }
    let fit = try screen("fit")
    #expect(fit[50, 20] == white && fit[50, 180] == white)
    #expect(fit[50, 60] == red && fit[50, 140] == green)
    let fill = try screen("fill")
    #expect(fill[50, 20] == red && fill[50, 180] == green)
    #expect(fill[0, 0] == red)
    // Views draw over the screenshot.
    #expect(fill[5, 195] == Pixel(r: 0, g: 0, b: 255, a: 255))
  }

  @Test static func missingImageShowsAPlaceholder() throws {
    let shot = try snapshot(view(""), assets: [:])
    let grey = ScreenBuilder.placeholder.premultipliedPixel
    #expect(shot.image[50, 40] == grey)
    #expect(shot.image[50, 10] == white)
  }

  /// A photo much larger than its view is area-averaged before it is drawn
  /// (`ImageDownsampling`): 1 px black and white columns show as even grey.
  @Test static func aPhotoViewShowsTheAverageNotAliasing() throws {
    var stripes = Bitmap(width: 400, height: 400, fill: Pixel(r: 0, g: 0, b: 0, a: 255))
    for y in 0..<400 {
      for x in stride(from: 1, to: 400, by: 2) { stripes[x, y] = white }
    }
    let shot = try snapshot(
      """
      canvas: { size: 60x60, scale: 1 }
      screens:
        home: { views: [ { frame: [10, 10, 40, 40], image: s.png } ] }
      timeline: [hold: 1]
      """, assets: ["jobs/s.png": stripes])
    for y in 11..<49 {
      for x in 11..<49 { #expect(abs(Int(shot.image[x, y].r) - 128) <= 2) }
    }
  }

  // MARK: Labels

  static var fonts: FontSet { (try? FontLibrary.system.get()) ?? .empty }

  /// Opaque pixels darker than mid-grey.
  static func darkPixels(_ b: Bitmap, in rect: (x: Range<Int>, y: Range<Int>)? = nil) -> Int {
    var n = 0
    for y in 0..<b.height {
      for x in 0..<b.width where b[x, y].a > 127 && Int(b[x, y].r) + Int(b[x, y].g) + Int(b[x, y].b) < 3 * 128 {
        if let rect, !(rect.x.contains(x) && rect.y.contains(y)) { continue }
        n += 1
      }
    }
    return n
  }

  @Test static func labelsDrawInsideTheirFrame() throws {
    let yaml = """
      canvas: { size: 200x100, scale: 2 }
      screens:
        home:
          background: white
          views:
            - { id: title, frame: [20, 30, 160, 40], text: "照片 Photos", align: center }
      timeline: [hold: 1]
      """
    let shot = try snapshot(yaml, assets: [:], fonts: fonts)
    let inside = darkPixels(shot.image, in: (40..<360, 60..<140))
    #expect(inside > 300)
    #expect(darkPixels(shot.image) == inside)
    // The label is part of the view's snapshot; without fonts it is not drawn.
    #expect(darkPixels(shot.viewImages["title"]!) == inside)
    #expect(darkPixels(try snapshot(yaml, assets: [:]).image) == 0)
  }

  @Test static func navbarHasAHairlineAndACentredTitle() throws {
    let shot = try snapshot(
      """
      canvas: { device: iphone-15, scale: 1 }
      screens:
        home:
          background: white
          views: [ { id: bar, kind: navbar, text: "设置" } ]
      timeline: [hold: 1]
      """, assets: [:], fonts: fonts)
    // 103 pt tall: translucent #F9F9F9 over white, a dark 1 px line at the bottom.
    #expect(shot.image[10, 50].r >= 249 && shot.image[10, 50].r < 255)
    #expect(shot.image[10, 102].r < 200)
    #expect(shot.image[10, 103] == white)
    // The title sits in the bottom 44 pt, centred.
    let ink = darkPixels(shot.image, in: (176..<217, 59..<102))
    #expect(ink > 50)
    #expect(darkPixels(shot.image, in: (0..<393, 0..<59)) == 0)
  }
}
