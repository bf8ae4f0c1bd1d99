import Foundation
import Jobs
import Media

/// `--gallery DIR`: `DIR/index.html`, one static page showing every demo of
/// the run — the video (or GIF), its poster, the job name, transitions,
/// duration and size — with paths relative to `DIR`, so it works opened
/// from disk, copied together with the outputs, or served as it is.
///
/// How an output is shown comes from its writer (`OutputFileType`): every
/// video of a job is a `<source>` of one `<video>`, WebM (VP9, the smaller)
/// before the others and those in the job's format order, since a browser
/// takes the first it plays and every browser plays H.264; the first still
/// is its poster; a job without video shows its first animation, else its
/// still, else a still image the page otherwise only links (its contact
/// sheet), so every job that made a picture shows one; a job whose only
/// output is a video browsers do not play (a ProRes MOV) says "no preview"
/// and why, above its link.
///
/// A small inline script marks `<body>` when the page is settled:
/// `data-media-ready="true"` once every `<video>` has its first frame
/// (`readyState >= 2`) and every `<img>` has decoded; `data-media-count`,
/// `data-media-loaded` and `data-console-errors` (script errors, failed
/// loads, `console.error` calls) let a headless browser check the page.
enum Gallery {
  /// With `preview` (`transvid watch`), the page loads `script` again every
  /// second and reloads itself when the key it sets is no longer `key`.
  static func html(_ results: [JobResult], in directory: String, preview: (script: String, key: String)? = nil) -> String {
    let base = BatchPlan.absolute(directory)
    var cards: [String] = []
    for r in results {
      func link(_ path: String) -> String { escape(relativePath(BatchPlan.absolute(path), from: base)) }
      // A job's outputs are its formats' files, in order (none for a failed job; a report
      // of an older transvid may list those it wrote before it failed);
      // one that is gone (`missing`, after a merge) is named, not shown or linked.
      let files = zip(r.job.formats, r.outputs).filter { !$1.missing }.map { (type: $0.writer.fileType, path: $1.path) }
      func first(_ presentation: OutputFileType.Presentation) -> String? {
        files.first { $0.type.presentation == presentation }?.path
      }
      let playable = files.filter { $0.type.presentation == .video }
      let videos = playable.filter { $0.type.mimeType == "video/webm" } + playable.filter { $0.type.mimeType != "video/webm" }
      var media = ""
      if !videos.isEmpty {
        let posterAttribute = first(.still).map { " poster=\"\(link($0))\"" } ?? ""
        let sources = videos.map { "<source src=\"\(link($0.path))\" type=\"\($0.type.mimeType)\">" }
        media =
          "<video\(posterAttribute) controls muted loop playsinline preload=\"auto\">\(sources.joined())</video>"
      } else if let image = first(.animation) ?? first(.still) ?? files.first(where: { $0.type.isStillImage })?.path {
        media = "<img src=\"\(link(image))\" alt=\"\(escape(r.job.name))\">"
      } else if let movie = files.first(where: { $0.type.mimeType.hasPrefix("video/") }) {
        // A video no browser but Safari plays (a ProRes MOV) and nothing else to show: the card says so.
        media =
          "<p class=\"no-preview\">no preview: most browsers do not play a \(escape(movie.type.fileExtension.uppercased())) "
          + "(ProRes; Safari and QuickTime do): \(escape(PathText.fileName(of: movie.path))) is linked below</p>"
      }
      // A failed job shows why it failed, one a signal stopped that it was stopped.
      if let failure = r.failure { media += "<pre class=\"error\">\(escape(failure.description))</pre>" }
      for output in r.outputs where output.missing {
        media += "<pre class=\"error\">\(escape(PathText.fileName(of: output.path))) is missing</pre>"
      }
      var facts: [String] = []
      if !r.job.transitions.isEmpty { facts.append(r.job.transitions.joined(separator: ", ")) }
      if r.job.frames > 0 {
        facts.append(String(format: "%.2f s", r.job.duration))
        facts.append("\(r.job.pixelWidth)×\(r.job.pixelHeight) px")
      }
      if r.bytes > 0 { facts.append(byteText(r.bytes)) }
      facts.append(r.status == .cached ? "up to date" : r.status.rawValue)
      let links = r.outputs.filter { !$0.missing }.map { "<a href=\"\(link($0.path))\">\(escape(PathText.fileName(of: $0.path)))</a>" }
      cards.append(
        """
            <figure class="job \(r.status.rawValue)">
              \(media)
              <figcaption><strong>\(escape(r.job.name))</strong>
                <span>\(escape(facts.joined(separator: " · ")))</span>
                <span>\(links.joined(separator: " "))</span></figcaption>
            </figure>
        """)
    }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>transvid demos</title>
      <style>
        body { font: 14px -apple-system, system-ui, sans-serif; margin: 24px; background: #f2f2f7; color: #1c1c1e; }
        main { display: flex; flex-wrap: wrap; gap: 20px; }
        figure { margin: 0; padding: 12px; background: #fff; border-radius: 12px; max-width: 320px; }
        figure.failed { border: 2px solid #ff3b30; }
        figure.stopped { border: 2px dashed #ff9500; }
        video, img { display: block; max-width: 296px; max-height: 520px; border-radius: 8px; background: #000; }
        figcaption { display: flex; flex-direction: column; gap: 4px; margin-top: 8px; }
        figcaption span { color: #6e6e73; }
        pre.error { white-space: pre-wrap; color: #ff3b30; max-width: 296px; }
        p.no-preview { margin: 0; padding: 24px 12px; max-width: 272px; border-radius: 8px; background: #e5e5ea; color: #3a3a3c; }
      </style>
      <script>
        (function () {
          var errors = 0;
          window.addEventListener('error', function () { errors += 1; }, true);
          var consoleError = console.error;
          console.error = function () { errors += 1; consoleError.apply(console, arguments); };
          function loaded(m) { return m.tagName === 'VIDEO' ? m.readyState >= 2 : m.complete && m.naturalWidth > 0; }
          function check() {
            var media = Array.prototype.slice.call(document.querySelectorAll('video, img'));
            var done = media.filter(loaded).length;
            var body = document.body;
            body.setAttribute('data-media-count', String(media.length));
            body.setAttribute('data-media-loaded', String(done));
            body.setAttribute('data-console-errors', String(errors));
            if (done === media.length) { body.setAttribute('data-media-ready', 'true'); } else { setTimeout(check, 50); }
          }
          window.addEventListener('load', check);
        })();
      </script>\(preview.map(previewScript) ?? "")
      </head>
      <body>
      <h1>transvid demos</h1>
      <main>
      \(cards.joined(separator: "\n"))
      </main>
      </body>
      </html>

      """
  }

  /// Reloads the page when `script` (loaded again every second) sets
  /// `window.transvidPreviewKey` to something other than `key`.
  private static func previewScript(_ preview: (script: String, key: String)) -> String {
    """

      <script>
        setInterval(function () {
          var tag = document.createElement('script');
          tag.src = \(JSONText.scriptString(percentEncoded(preview.script))) + '?' + Date.now();
          tag.onload = function () {
            tag.remove();
            if (window.transvidPreviewKey && window.transvidPreviewKey !== \(JSONText.scriptString(preview.key))) { location.reload(); }
          };
          tag.onerror = function () { tag.remove(); };
          document.head.appendChild(tag);
        }, 1000);
      </script>
    """
  }

  /// `path` relative to the folder `base` (both absolute and standardized),
  /// each component percent-encoded for a URL unless `encoded` is false.
  /// A colon is encoded too: a relative link's first segment with one is a
  /// scheme (`-o http:host:1` would link `http://host:1/…`, a folder named
  /// `javascript:…` would run script), and `%3A` names the same file.
  static func relativePath(_ path: String, from base: String, encoded: Bool = true) -> String {
    let target = path.split(separator: "/").map(String.init)
    let origin = base.split(separator: "/").map(String.init)
    var common = 0
    while common < min(target.count, origin.count) && target[common] == origin[common] { common += 1 }
    let ups = [String](repeating: "..", count: origin.count - common)
    return (ups + target[common...]).map { encoded ? percentEncoded($0) : $0 }.joined(separator: "/")
  }

  private static func percentEncoded(_ component: String) -> String {
    component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#:"))) ?? component
  }

  /// `bytes` in SI units, as a job writes sizes (`500kB` is 500 000 bytes,
  /// `10MB` 10 000 000): a GIF made to `maxBytes: 10MB` reads as at most
  /// 10.0 MB. The unit is chosen after rounding, so 999 600 bytes is 1.0 MB.
  static func byteText(_ bytes: Int) -> String {
    bytes >= 999_500 ? String(format: "%.1f MB", Double(bytes) / 1_000_000)
      : bytes >= 1000 ? String(format: "%.0f kB", Double(bytes) / 1000) : "\(bytes) bytes"
  }

  private static func escape(_ text: String) -> String { BatchReport.escape(text) }
}
