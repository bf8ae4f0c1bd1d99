import Geometry

extension SceneBuilder {
  /// The shadow of `layer` beneath its commands (not yet implemented: none).
  func shadow(_ layer: Layer, map: Homography, over cmds: [Command]) -> [Command] { [] }
}
