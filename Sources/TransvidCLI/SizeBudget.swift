import Foundation
import Jobs
import Media

/// `maxBytes:` of mp4 and webm: the best quality that fits. The video is
/// encoded in two passes at the average rate the budget allows over the
/// job's duration (`TwoPass`), with a little headroom for the container and
/// the rate control's error; a file over the budget is encoded again at a
/// rate lowered in proportion, one under 80 % of it at a rate raised —
/// until a rate four times one tried made the file less than a tenth
/// larger than that one did (a short or simple demo far under a generous
/// budget needs no more bits: the file at the lower rate is kept; a rate
/// half again as high that bought as little is followed by that one), at
/// most 100 Mb/s, in at most `attempts` encodes (a note says so
/// when they end the search under 80 %); the
/// largest file that fitted is kept (set aside while later rates are
/// tried, never encoded twice), and a budget none of the rates tried meets
/// is tried once more at the lowest rate. The result is never over
/// the budget: a budget no rate meets is an error naming the key, the
/// limit and the rates tried.
///
/// Where the budget only caps the crf encode (`MP4Settings.capsCRF`: the
/// job wrote `crf` beside it, or a target set it), `capping` encodes at the
/// crf first and keeps that file when it fits; only one over the budget
/// goes on to the two-pass search.
///
/// Two passes rather than a search over crf: a crf search needs several full
/// encodes (each rendering every frame again) to bracket the size, while
/// the second pass of an average-rate encode lands within a few per cent of
/// its target, and x264's first pass runs at a fast setting by default.
struct SizeBudget {
  /// Changes whenever the search keeps another file for some budget, so
  /// cached outputs (the mp4 and webm writers' keys carry it) are made again.
  /// 2: rates stop at 100 Mb/s; a higher rate that bought nothing keeps the lower's file.
  /// 3: a budget beside `crf`, or a target's, caps the crf encode.
  /// 4: a rate is compared with every rate tried, not only the one before,
  /// for what it bought; 8 encodes, not 4.
  /// 5: a rate half again as high that bought little is checked at four
  /// times the lower rate before the file is said to need no more bits.
  static let revision = 5

  /// The budget in bytes.
  var maxBytes: Int
  /// `output.mp4.maxBytes`: what errors name.
  var key: String
  /// The job, for errors at the key's line.
  var spec: JobSpec

  /// The lowest average rate tried, in bits per second.
  static let lowestBitRate = 20_000
  /// The share of the budget the first attempt aims at.
  static let headroom = 0.96
  /// At most this many encodes before the lowest rate's last try: enough
  /// for a file far under its budget, whose rate is raised by the share it
  /// missed each time, to reach 80 % or a rate that buys nothing; a bound,
  /// so that an encoder whose size keeps creeping up with the rate does
  /// not encode the video dozens of times.
  static let attempts = 8
  /// The highest rate tried (100 Mb/s): far above any demo's need. x264
  /// takes its level from the rate, and this keeps it at 5.1 or below
  /// (160 Mb/s makes 6.1, a level for 8K video many phones do not decode).
  static let highestBitRate = 100_000_000

  /// The crf encode (`encodeAtCRF`, writing the file at `path`) when
  /// `capsCRF` and it fits the budget, else `fit`'s file, its note saying
  /// what the crf encode came to.
  func capping(
    _ capsCRF: Bool, crf: Int, path: String, duration: Double, what: String,
    encodeAtCRF: () throws -> VideoSummary, encode: (Int) throws -> VideoSummary
  ) throws -> (VideoSummary, String) {
    guard capsCRF else { return try fit(path: path, duration: duration, what: what, encode: encode) }
    let summary = try encodeAtCRF()
    if summary.bytes <= maxBytes {
      return (summary, "\(what): crf \(crf), \(Self.shareText(summary.bytes, of: maxBytes)) of maxBytes \(maxBytes)")
    }
    try? FileManager.default.removeItem(atPath: path)
    let (fitted, note) = try fit(path: path, duration: duration, what: what, encode: encode)
    return (fitted, note + " (crf \(crf) made \(summary.bytes) bytes)")
  }

  /// The share of `budget` that `bytes` came to, in whole per cent rounded
  /// down (`4 %`, never `100 %` for a file under it), and `<1 %` for a
  /// file under 1 % of it, which is not empty.
  static func shareText(_ bytes: Int, of budget: Int) -> String {
    let share = Int((Double(bytes) * 100 / Double(budget)).rounded(.down))
    return share == 0 && bytes > 0 ? "<1 %" : "\(share) %"
  }

  /// Encodes the video with `encode(bitRate)` (both passes, writing the
  /// file at `path`) until it fits. Returns the last summary and the note
  /// for the summary line; on failure nothing is left at `path`.
  ///
  /// x264's size is not monotone in the rate at low rates (a lower rate
  /// can make a larger file), so the search brackets: a rate over the
  /// budget is followed by one at most 9/10 of it (above any rate whose
  /// file fitted, else the search ends), one under by one below the lowest
  /// rate found over. When the attempts run out the largest file that
  /// fitted is kept, or, if none did, the lowest rate is tried before the
  /// budget is called unmet.
  func fit(path: String, duration: Double, what: String, encode: (Int) throws -> VideoSummary) throws -> (
    VideoSummary, String
  ) {
    if let problem = Self.tooLow(maxBytes, over: duration) { throw failure(problem) }
    var rate = Self.firstRate(maxBytes, over: duration)
    var tried: [(rate: Int, bytes: Int)] = []
    var best: (rate: Int, summary: VideoSummary)?
    // The best file is kept aside while later rates are tried, and moved
    // back if none beats it: never encoded twice.
    let aside = path + ".best"
    var bestIsAside = false
    defer { if bestIsAside { try? FileManager.default.removeItem(atPath: aside) } }
    var lowestOver = Int.max
    func triedText(_ attempts: ArraySlice<(rate: Int, bytes: Int)>) -> String {
      attempts.map { "\(Self.rateText($0.rate)) → \($0.bytes) bytes" }.joined(separator: ", ")
    }
    func kept(_ summary: VideoSummary, at rate: Int, needsNoMore: Bool, cutShort: Bool = false) -> (VideoSummary, String) {
      let others = tried.filter { $0.rate != rate || $0.bytes != summary.bytes }
      // A file that needs no more bits averages less than it was allowed: its own rate is the one to say.
      let made = Int((Double(summary.bytes) * 8 / max(duration, 1e-3)).rounded())
      return (
        summary,
        "\(what): maxBytes \(maxBytes): two-pass at \(Self.rateText(rate)), \(Self.shareText(summary.bytes, of: maxBytes)) of the budget"
          + (needsNoMore ? " (it needs no more bits: it averages \(Self.rateText(made)))" : "")
          + (cutShort ? " (the search stops after \(Self.attempts) encodes)" : "")
          + (others.isEmpty ? "" : " (tried \(triedText(others[...])))")
      )
    }
    func attempt(_ rate: Int) throws -> VideoSummary {
      if let best, !bestIsAside, tried.last?.rate == best.rate {
        try Platform.move(path, to: aside)
        bestIsAside = true
      }
      let summary = try encode(rate)
      tried.append((rate, summary.bytes))
      return summary
    }
    /// The best file, at `path`.
    func keptBest(needsNoMore: Bool, cutShort: Bool = false) throws -> (VideoSummary, String) {
      let best = best!
      if tried.last!.rate != best.rate || tried.last!.bytes != best.summary.bytes {
        try Platform.move(aside, to: path)
        bestIsAside = false
      }
      return kept(best.summary, at: best.rate, needsNoMore: needsNoMore, cutShort: cutShort)
    }
    var exhausted = true
    for _ in 1...Self.attempts {
      let summary = try attempt(rate)
      let fits = summary.bytes <= maxBytes
      // A rate half again as high as one tried that made the file hardly
      // larger than that one did bought little: the file at the lower rate
      // stays the best. Every rate tried counts, not only the one before:
      // two steps of a little under half again each add up to more. That
      // the file needs no more bits is only said of a rate four times as
      // high: libvpx's size grows slowly at low rates and then faster again
      // (a 0.8 s push: 38.4 kb/s → 2365 bytes, 61.7 → 2511, 192 → 4379), so
      // half again may buy 6 % where four times buys 85 %.
      func boughtLittle(from least: (Int) -> Int) -> [Int] {
        tried.dropLast().filter { rate >= least($0.rate) && summary.bytes * 10 < $0.bytes * 11 }.map(\.rate)
      }
      let stalledOver = boughtLittle { $0 * 3 / 2 }
      let stalled = !stalledOver.isEmpty
      let boughtNothing = !boughtLittle { $0 * 4 }.isEmpty
      if fits {
        if best == nil || (summary.bytes > best!.summary.bytes && !stalled) {
          best = (rate, summary)
          if bestIsAside {
            try? FileManager.default.removeItem(atPath: aside)
            bestIsAside = false
          }
        }
        // A file far under a generous budget may need no more bits: when a
        // higher rate did not make it larger, or at the ceiling, the best
        // file so far is kept. (How far a file falls short of its rate says
        // nothing: libvpx lands at a third of it and still grows with it.)
        let ceiling = rate >= Self.highestBitRate
        if summary.bytes * 5 >= maxBytes * 4 || boughtNothing || ceiling {
          return try keptBest(needsNoMore: best!.summary.bytes * 5 < maxBytes * 4)
        }
      } else {
        lowestOver = min(lowestOver, rate)
      }
      // Size goes roughly with the rate: aim at the middle of 80…100 %, a
      // little under the top when the file was over.
      let aim = fits ? 0.95 : Self.headroom
      var next = Int(Double(rate) * Double(maxBytes) * aim / Double(max(summary.bytes, 1)))
      // A rate that bought little is followed by four times the highest
      // rate it bought little over (above this one, or it bought nothing).
      if fits, let lower = stalledOver.max() { next = max(next, lower * 4) }
      next = fits ? min(next, lowestOver == .max ? next : (rate + lowestOver) / 2) : min(next, rate * 9 / 10)
      next = min(max(next, Self.lowestBitRate), Self.highestBitRate)
      // Nothing left between the rates tried: after a file that fitted, no
      // rate above its own below the lowest over; after one over, none
      // above a rate whose file fitted (that file is kept), or the lowest
      // rate reached (a rate within 1 % of it is it).
      let nothingLeft =
        fits ? next <= rate : rate <= Self.lowestBitRate * 101 / 100 || best.map { next <= $0.rate } == true
      if nothingLeft {
        exhausted = false
        break
      }
      rate = next
    }
    // Still under 80 % when the encodes ran out (a file right under the lowest rate over the budget has no room left).
    if let best { return try keptBest(needsNoMore: false, cutShort: exhausted && best.summary.bytes * 5 < maxBytes * 4) }
    // The lowest rate, unless it (or a rate within 1 % of it) was tried.
    if tried.map(\.rate).min()! > Self.lowestBitRate * 101 / 100 {
      let summary = try attempt(Self.lowestBitRate)
      if summary.bytes <= maxBytes { return kept(summary, at: Self.lowestBitRate, needsNoMore: false) }
    }
    try? FileManager.default.removeItem(atPath: path)
    let lowest = tried.min { $0.rate < $1.rate }!
    throw failure(
      "even at \(Self.rateText(lowest.rate)) the \(what) is \(lowest.bytes) bytes, over \(maxBytes) (tried \(triedText(tried[...])))")
  }

  /// A rate in kb/s, to a tenth below 100 kb/s where it is not whole
  /// (20.9 kb/s, not 20, beside the lowest rate).
  static func rateText(_ bitsPerSecond: Int) -> String {
    let tenths = (bitsPerSecond + 50) / 100
    return tenths % 10 == 0 || tenths >= 1000 ? "\((bitsPerSecond + 500) / 1000) kb/s" : "\(tenths / 10).\(tenths % 10) kb/s"
  }

  /// Throws, for `transvid check`, a `maxBytes` of `formats` below the
  /// lowest rate over `duration` seconds: the error `fit` would give.
  static func check(_ spec: JobSpec, formats: [OutputFormat], duration: Double) throws(Diagnostic) {
    let budgets = [
      (OutputFormat.mp4, spec.output.mp4.maxBytes, "output.mp4.maxBytes"),
      (OutputFormat.webm, spec.output.webm.maxBytes, "output.webm.maxBytes"),
    ]
    for case (let kind, let maxBytes?, let key) in budgets where formats.contains(kind) {
      if let problem = tooLow(maxBytes, over: duration) { throw spec.diagnostic(at: key, problem) }
    }
  }

  /// The first rate `fit` tries for `maxBytes` over `duration` seconds:
  /// the budget's rate less the headroom, at least the lowest rate (a
  /// budget of 20–20.8 kb/s starts there).
  static func firstRate(_ maxBytes: Int, over duration: Double) -> Int {
    min(max(Int(Double(maxBytes) * 8 * headroom / max(duration, 1e-3)), lowestBitRate), highestBitRate)
  }

  /// Why `maxBytes` over `duration` seconds cannot be met, if the budget's
  /// own rate (no headroom) is below the lowest: said to a tenth of a kb/s,
  /// rounded down, so a rate below the lowest never reads as it.
  static func tooLow(_ maxBytes: Int, over duration: Double) -> String? {
    let rate = Double(maxBytes) * 8 / max(duration, 1e-3)
    guard rate < Double(lowestBitRate) else { return nil }
    let tenths = Int((rate / 100).rounded(.down))
    let text = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    return "\(maxBytes) bytes over \(format(duration)) s is \(text) kb/s, below the lowest rate (\(lowestBitRate / 1000) kb/s)"
  }

  private func failure(_ message: String) -> JobFailure {
    JobFailure(spec.diagnostic(at: key, message))
  }

  static func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}
