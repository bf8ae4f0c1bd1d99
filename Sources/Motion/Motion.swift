// Motion: the clocks that drive every transition.
//
// A transition's progress goes through one of three clocks, as on iOS:
//
// - a `TimingFunction` (CAMediaTimingFunction: a cubic Bézier from (0, 0) to
//   (1, 1)) that maps the elapsed fraction of a duration to progress;
// - a `Spring` (CASpringAnimation, or one of UIKit's forms mapped onto it:
//   duration/damping, response/dampingRatio, duration/bounce, the system
//   spring "curve 7"), evaluated in real time and solved in closed form;
// - a finger (`InteractiveTransitionTrack`, UIPercentDrivenInteractiveTransition),
//   which scrubs the animation's time and then hands over to a completion curve.
//
// `AnimationCurve` puts the first two behind one value, so a transition takes
// "a curve" without caring which kind; `KeyframeTrack` chains and overlaps
// curves the way nested `UIView.animate` calls do (seed 003's three thirds);
// `CurveSample` tabulates a curve for `transvid curve`.
//
// Design rules:
// - Everything is a pure function of time. Nothing steps, nothing allocates
//   while evaluating: springs precompute their coefficients at construction,
//   Bézier curves their polynomial coefficients.
// - Precision is set by the golden vectors in `Tests/Fixtures` (TIMING.md, timing_vectors.json):
//   timing functions to ~1e-14 (spec: 1e-6), springs to ~1e-15 (spec: 1e-9),
//   UIKit's spring mapping to the converged root (spec: 1e-6 relative).
// - Apple's names and units: `dampingRatio`, `initialVelocity` in from→to
//   distances per second (positive toward the target), `allowsOverdamping`,
//   `completionSpeed`, `easeInEaseOut`.
// - Text forms (`TimingFunction(parsing:)`, `Spring(parsing:)`,
//   `AnimationCurve(parsing:)`) throw `MotionParseError`, whose `description`
//   is a sentence meant for the user. The module does no I/O and does not
//   import Foundation; libm comes from Glibc.
