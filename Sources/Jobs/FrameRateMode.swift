/// `frameRate:` of a video (`output.mp4`, `output.webm`): whether a held
/// picture is encoded again at every frame of the canvas rate.
///
/// A demo is mostly holds: the screen rests between transitions. At a
/// constant rate the encoder codes each held frame again (skipped blocks,
/// cheap but not free); at a variable rate a hold is one picture whose next
/// picture comes later, so the encoder codes each picture once. On
/// jobs/magic-move.cfg (196 frames) the MP4 has 105 pictures instead of
/// 196 and is 6 % smaller, at the same length.
/// Browsers, QuickTime and GitHub play both; constant stays the default
/// because video editors and some platforms' ingest expect one picture per
/// frame interval. MOV (ProRes, for editors) is always constant.
public enum FrameRateMode: String, Hashable, Sendable, CaseIterable {
  /// Every frame of the canvas rate is a picture.
  case constant
  /// A picture only where the frame differs from the one before; the last
  /// frame is always a picture, so the video lasts exactly as long.
  case variable
}
