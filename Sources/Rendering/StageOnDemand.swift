import Jobs
import Raster
import Synchronization

/// A job's `Stage`, prepared the first time a frame asks for it.
///
/// Preparing a stage draws its background and device at the canvas scale
/// (the larger part of a stage job's set-up), and a renderer may never draw
/// a frame: the GIF writer draws from a copy of the job's renderer at the
/// GIF's own rate (`FrameRenderer.opaque(scale:fps:)`), and the renderer it
/// was copied from would have drawn its stage for nothing. Every thread that
/// asks gets the one stage; the first prepares it under the lock.
final class StageOnDemand: Sendable {
  private let make: @Sendable () -> Stage
  private let prepared = Mutex<Stage?>(nil)

  init(spec: JobSpec, stage: StageSpec, timeline: Timeline, assets: [String: Bitmap], fonts: FontSet) {
    make = { Stage(spec: spec, stage: stage, timeline: timeline, assets: assets, fonts: fonts) }
  }

  /// The stage (prepared now if no frame asked before).
  var stage: Stage {
    prepared.withLock { prepared in
      if let stage = prepared { return stage }
      let stage = make()
      prepared = stage
      return stage
    }
  }
}
