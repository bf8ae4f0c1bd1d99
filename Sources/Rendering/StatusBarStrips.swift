import Jobs

/// Whose top strip the screenshots' own status bar (`canvas.statusBar: N`)
/// shows at each end of each step.
///
/// The step's own screens, except a screen shown in a card narrower than
/// the screen (an iPad's form sheet, a sheet's `cardWidth`): its picture is
/// the card's, as a screenshot of a view controller shown in a form sheet
/// is, and holds no status bar, so its top rows are the card's own (its
/// nav bar, its title). At such an end the bar stays as the whole screen
/// under the card shows it, the screen last on display whole, while the
/// card comes up, pushes and pops inside it and goes down, as iPadOS keeps
/// its status bar over the screen a form sheet is presented on.
struct StatusBarStrips: Sendable {
  /// Per timeline segment: the screens whose strips cross-fade from and to
  /// (nil for a still, which shows its own picture's strip).
  let ends: [(from: String, to: String)?]

  init(spec: JobSpec, timeline: Timeline) {
    let inCard = Set(spec.screens.filter { $0.cardWidth != nil }.map(\.name))
    var whole = spec.initialScreen
    ends = timeline.segments.map { segment in
      guard case .transition(_, let step) = segment.content else { return nil }
      let from = inCard.contains(step.from) ? whole : step.from
      if !inCard.contains(step.finalScreen) { whole = step.finalScreen }
      return (from, inCard.contains(step.to) ? whole : step.to)
    }
  }
}
