import Geometry

/// A layer tree node with CALayer's model: a value type the transitions build
/// fresh for every frame and the compositor renders.
///
/// Geometry follows Core Animation: `bounds` gives the layer's own coordinate
/// space, `position` is where its `anchorPoint` (unit coordinates of bounds)
/// sits in the superlayer, `transform` applies about the anchor point, and the
/// superlayer's `sublayerTransform` applies about its own anchor point (this is
/// where `m34` perspective goes). All geometry is in points; the compositor
/// multiplies by the canvas scale at the very end.
public struct Layer: Sendable {
  // MARK: Geometry
  public var bounds: Rect
  public var position: Point
  public var anchorPoint: Point = Point(x: 0.5, y: 0.5)
  public var transform: Transform3D = .identity
  public var sublayerTransform: Transform3D = .identity

  // MARK: Appearance
  public var opacity: Double = 1
  public var isHidden: Bool = false
  public var backgroundColor: Color? = nil
  public var cornerRadius: Double = 0
  public var masksToBounds: Bool = false
  public var borderWidth: Double = 0
  public var borderColor: Color = .black

  // MARK: Contents
  /// A bitmap drawn into `bounds` according to `contentsGravity` (a snapshot
  /// or a decoded image). Its pixel size need not match the layer's.
  public var contents: Bitmap? = nil
  public var contentsGravity: ContentsGravity = .resize
  /// The pixels per point of `contents` (`contentsScale`).
  public var contentsScale: Double = 1

  // MARK: Gradient (CAGradientLayer)
  /// An axial gradient filling the bounds (with `cornerRadius`), drawn above
  /// the background colour and below `contents`.
  public var gradient: Gradient? = nil

  // MARK: Shape (CAShapeLayer)
  public var path: Path? = nil
  public var fillColor: Color? = nil
  public var fillRule: FillRule = .nonZero

  // MARK: Shadow
  public var shadowColor: Color = .black
  public var shadowOpacity: Double = 0
  public var shadowRadius: Double = 3
  public var shadowOffset: Size = Size(width: 0, height: -3)
  public var shadowPath: Path? = nil

  // MARK: Tree
  public var sublayers: [Layer] = []
  /// The mask layer: only its alpha matters; it is in this layer's coordinate space.
  public var mask: Layer? {
    get { maskStorage.first }
    set { maskStorage = newValue.map { [$0] } ?? [] }
  }
  @usableFromInline var maskStorage: [Layer] = []

  /// A layer with `frame` in its superlayer (anchor point at the centre).
  public init(frame: Rect) {
    bounds = Rect(origin: .zero, size: frame.size)
    position = frame.center
  }

  /// The frame in the superlayer's coordinates, ignoring `transform`.
  public var frame: Rect {
    Rect(
      x: position.x - anchorPoint.x * bounds.width, y: position.y - anchorPoint.y * bounds.height,
      width: bounds.width, height: bounds.height)
  }
}

/// `CALayer.contentsGravity`.
public enum ContentsGravity: String, Sendable, CaseIterable {
  case resize, resizeAspect, resizeAspectFill, center
}

/// `CAShapeLayerFillRule`.
public enum FillRule: String, Sendable, CaseIterable {
  case nonZero, evenOdd
}
