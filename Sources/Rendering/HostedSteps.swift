// Hosted steps: a push while a sheet is up, and the pop that undoes it, run
// in the sheet's card (`RestingImages.Host`), as UIKit's navigation
// controller presented there does: the card is the step's container and
// its screens are the card's part of them, their top-left, where a screen
// shown in a card is laid out. So what a transition does to a whole screen
// (turns it about its centre line, hinges it at its edge, shrinks it about
// its middle, darkens it) it does to what the card shows: in the card, the
// step draws what it draws on a screen of the card's size.

import Geometry
import Transitions

extension TransitionContext {
  /// The context of a step running in a `card`-sized container: its screens
  /// cut to the card's pixels (rounded up, as a canvas of fractional points
  /// is, and drawn at their own size there).
  func inCard(_ card: Size) -> TransitionContext {
    let columns = Int((card.width * scale).rounded(.up)), rows = Int((card.height * scale).rounded(.up))
    var context = self
    context.containerSize = card
    context.fromScreen = fromScreen.topLeft(columns: columns, rows: rows)
    context.toScreen = toScreen.topLeft(columns: columns, rows: rows)
    let image = context.toScreen.image
    let pixels = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
    context.screenSize = pixels == card ? nil : pixels
    return context
  }
}

extension ScreenSnapshot {
  /// The screen's top-left `columns × rows` pixels, with its views where
  /// they are: a screen shown in a card, cut to it.
  func topLeft(columns: Int, rows: Int) -> ScreenSnapshot {
    var cut = self
    cut.image = image.topLeft(columns: columns, rows: rows)
    cut.imagesWithViewHidden = imagesWithViewHidden.mapValues { $0.topLeft(columns: columns, rows: rows) }
    return cut
  }
}
