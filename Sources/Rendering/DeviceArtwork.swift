import Geometry
import Jobs
import Raster

/// A device drawn as vector shapes, from its preset's figures: a soft
/// shadow on the stage, side buttons, the metal band in the finish's colour
/// (lit from the top left), the black glass with its bezel, the screen
/// (black here; each frame's canvas goes over it), the Dynamic Island or
/// notch, and the front details of older designs (earpiece, camera, Home
/// button).
///
/// Shapes are laid out on the portrait body and turned with the device:
/// held in landscape the top of the device is on the left
/// (`DeviceOrientation.landscape`).
struct DeviceArtwork {
  var preset: DevicePreset
  var finish: DeviceFinish
  var orientation: DeviceOrientation
  /// The body's frame on the stage, in points (already turned).
  var body: Rect

  /// The width of the metal band seen from the front: about 1.2 mm.
  var bandWidth: Double { 1.2 * preset.pointsPerMillimetre }

  /// `rect`, given on the portrait body, on the stage.
  func place(_ rect: Rect) -> Rect {
    switch orientation {
    case .portrait:
      return Rect(x: body.minX + rect.minX, y: body.minY + rect.minY, width: rect.width, height: rect.height)
    case .landscape:
      // A quarter turn counter-clockwise: (x, y) → (y, W − x).
      let w = preset.bodySize.width
      return Rect(x: body.minX + rect.minY, y: body.minY + w - rect.maxX, width: rect.height, height: rect.width)
    }
  }

  /// A unit point of a portrait shape, in the turned shape.
  func place(unit p: Point) -> Point {
    orientation == .portrait ? p : Point(x: p.y, y: 1 - p.x)
  }

  /// A gradient given on the portrait body, turned.
  func place(_ gradient: Gradient) -> Gradient {
    var g = gradient
    g.startPoint = place(unit: gradient.startPoint)
    g.endPoint = place(unit: gradient.endPoint)
    return g
  }

  /// The end point, from (0, 0), of the light's gradient across a `size`
  /// rectangle: the colours change along its diagonal in points (lines of
  /// one colour square to it), where a gradient's unit square stretched
  /// with a tall body (CAGradientLayer's) would slant them towards its long
  /// side. With u = x/w, v = y/h, t = (u·a + v·b)/(a² + b²) is
  /// (x·w + y·h)/(w² + h²) for (a, b) = c·(w², h²), c = (w² + h²)/(w⁴ + h⁴).
  static func lightDiagonal(_ size: Size) -> Point {
    let w2 = size.width * size.width, h2 = size.height * size.height
    guard w2 > 0, h2 > 0 else { return Point(x: 1, y: 1) }
    let c = (w2 + h2) / (w2 * w2 + h2 * h2)
    return Point(x: w2 * c, y: h2 * c)
  }

  func roundedLayer(_ rect: Rect, radius: Double, color: Color? = nil, gradient: Gradient? = nil) -> Layer {
    var layer = Layer(frame: place(rect))
    layer.cornerRadius = Swift.min(radius, Swift.min(rect.width, rect.height) / 2)
    layer.backgroundColor = color
    layer.gradient = gradient.map(place)
    return layer
  }

  /// The finish's colour lightened (`amount` > 0) or darkened.
  func shade(_ amount: Double) -> Color {
    let c = finish.frame
    func f(_ v: Double) -> Double { amount >= 0 ? v + (1 - v) * amount : v * (1 + amount) }
    return Color(red: f(c.red), green: f(c.green), blue: f(c.blue), alpha: 1)
  }

  /// Everything but the screen's contents, in stage points.
  func layers() -> [Layer] {
    let size = preset.bodySize
    let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
    let radius = preset.bodyCornerRadius
    var result: [Layer] = []

    // The shadow the device casts on the stage: soft, a little below.
    var shadow = roundedLayer(whole, radius: radius, color: shade(-0.3))
    shadow.shadowOpacity = 0.35
    shadow.shadowRadius = size.width * 0.05
    shadow.shadowOffset = Size(width: 0, height: size.width * 0.03)
    shadow.shadowColor = .black
    result.append(shadow)

    // Buttons stand out from the edges, shaded along their length.
    let depth = StageLayout.buttonDepth
    for button in preset.buttons {
      let rect: Rect
      let across: Gradient
      switch button.edge {
      case .left:
        rect = Rect(x: -depth, y: button.offset, width: depth + 3, height: button.length)
        across = Gradient(colors: [shade(-0.35), shade(0.25)], startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
      case .right:
        rect = Rect(x: size.width - 3, y: button.offset, width: depth + 3, height: button.length)
        across = Gradient(colors: [shade(0.25), shade(-0.35)], startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
      case .top:
        rect = Rect(x: button.offset, y: -depth, width: button.length, height: depth + 3)
        across = Gradient(colors: [shade(0.3), shade(-0.2)], startPoint: Point(x: 0.5, y: 0), endPoint: Point(x: 0.5, y: 1))
      }
      result.append(roundedLayer(rect, radius: 1.5, gradient: across))
    }

    // The band: the finish, brighter at the top left where the light comes from.
    var band = roundedLayer(
      whole, radius: radius,
      gradient: Gradient(
        colors: [shade(0.45), shade(0.05), shade(-0.25), shade(-0.05)], locations: [0, 0.35, 0.7, 1],
        startPoint: Point(x: 0, y: 0), endPoint: Self.lightDiagonal(whole.size)))
    band.borderColor = shade(-0.45)
    band.borderWidth = 0.75
    result.append(band)

    // The glass: near black, with a faint lighter rim where it meets the band.
    let glassInset = bandWidth
    let glassRect = whole.insetBy(dx: glassInset, dy: glassInset)
    var glass = roundedLayer(glassRect, radius: radius - glassInset, color: Color(red8: 10, green8: 10, blue8: 12))
    glass.borderColor = Color(red: 1, green: 1, blue: 1, alpha: 0.12)
    glass.borderWidth = 0.75
    result.append(glass)
    // A sheen across the bezel's upper half, as glass catches the light.
    result.append(
      roundedLayer(
        glassRect, radius: radius - glassInset,
        gradient: Gradient(
          colors: [Color(red: 1, green: 1, blue: 1, alpha: 0.10), Color(red: 1, green: 1, blue: 1, alpha: 0)],
          locations: [0, 0.45], startPoint: Point(x: 0, y: 0), endPoint: Self.lightDiagonal(glassRect.size))))

    // The screen (its contents are drawn per frame) and what cuts into it.
    let screen = Rect(
      x: (size.width - preset.size.width) / 2, y: (size.height - preset.size.height) / 2, width: preset.size.width,
      height: preset.size.height)
    result.append(roundedLayer(screen, radius: preset.screenCornerRadius, color: .black))
    result += frontDetails(screen: screen)
    return result
  }

  /// The sensor housing over the screen and the front's other details.
  func frontDetails(screen: Rect) -> [Layer] {
    let black = Color(red8: 0, green8: 0, blue8: 0)
    let lens = Color(red8: 28, green8: 32, blue8: 48)
    var result: [Layer] = []
    let bezelTop = screen.minY
    switch preset.sensorHousing {
    case .dynamicIsland(let width, let height, let top):
      let pill = Rect(x: screen.midX - width / 2, y: screen.minY + top, width: width, height: height)
      result.append(roundedLayer(pill, radius: height / 2, color: black))
      // The front camera's lens at the pill's right end.
      let d = height * 0.32
      result.append(
        roundedLayer(
          Rect(x: pill.maxX - height / 2 - d / 2, y: pill.midY - d / 2, width: d, height: d), radius: d / 2, color: lens))
      // The earpiece: a slit in the glass above the screen.
      result.append(earpiece(centreY: bezelTop / 2 + 1, width: preset.size.width * 0.13))
    case .notch(let width, let height):
      let notch = Rect(x: screen.midX - width / 2, y: screen.minY - 1, width: width, height: height + 1)
      result.append(roundedLayer(notch, radius: height * 0.6, color: black))
      // Squares off the notch's top corners, where it meets the bezel.
      result.append(roundedLayer(Rect(x: notch.minX, y: notch.minY, width: width, height: height / 2), radius: 0, color: black))
      result.append(earpiece(centreY: screen.minY + height * 0.25, width: width * 0.32))
      let d = height * 0.3
      result.append(
        roundedLayer(
          Rect(x: notch.midX + width * 0.22, y: screen.minY + height * 0.38 - d / 2, width: d, height: d), radius: d / 2,
          color: lens))
    case .none:
      let d = Swift.min(8, bezelTop * 0.2)
      if preset.hasHomeButton {
        result.append(earpiece(centreY: bezelTop / 2, width: preset.size.width * 0.12))
        result.append(
          roundedLayer(
            Rect(x: screen.midX - preset.size.width * 0.2 - d, y: bezelTop / 2 - d / 2, width: d, height: d),
            radius: d / 2, color: lens))
        result += homeButton(below: screen)
      } else {
        result.append(
          roundedLayer(Rect(x: screen.midX - d / 2, y: bezelTop / 2 - d / 2, width: d, height: d), radius: d / 2, color: lens))
      }
    }
    return result
  }

  func earpiece(centreY: Double, width: Double) -> Layer {
    let height = Swift.max(1.5, preset.pointsPerMillimetre * 0.6)
    let rect = Rect(x: preset.bodySize.width / 2 - width / 2, y: centreY - height / 2, width: width, height: height)
    var layer = roundedLayer(rect, radius: height / 2, color: Color(red8: 36, green8: 36, blue8: 40))
    layer.borderColor = Color(red: 1, green: 1, blue: 1, alpha: 0.08)
    layer.borderWidth = 0.5
    return layer
  }

  /// iPhone SE's Home button: an 11 mm disc with a ring of the finish.
  func homeButton(below screen: Rect) -> [Layer] {
    let d = 11 * preset.pointsPerMillimetre
    let centre = Point(x: screen.midX, y: (screen.maxY + preset.bodySize.height) / 2)
    let disc = Rect(x: centre.x - d / 2, y: centre.y - d / 2, width: d, height: d)
    var ring = roundedLayer(disc, radius: d / 2, color: Color(red8: 14, green8: 14, blue8: 16))
    ring.borderColor = shade(-0.1)
    ring.borderWidth = 1.5
    let inner = disc.insetBy(dx: 1.5, dy: 1.5)
    let face = roundedLayer(
      inner, radius: inner.width / 2,
      gradient: Gradient(
        colors: [Color(red8: 30, green8: 30, blue8: 34), Color(red8: 8, green8: 8, blue8: 10)],
        startPoint: Point(x: 0.3, y: 0), endPoint: Point(x: 0.7, y: 1)))
    return [ring, face]
  }
}
