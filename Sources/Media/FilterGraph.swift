import CFFmpeg

/// An owned libavfilter graph with named `buffer` sources and one
/// `buffersink` output, built from a filter description through the library
/// (`avfilter_graph_parse_ptr`), never by running the `ffmpeg` program.
///
/// The description names its inputs and its output by label:
/// `"[in][palette]paletteuse=dither=bayer[out]"` with sources `in` and
/// `palette`. Every source takes frames of one size and pixel format, with
/// timestamps in centiseconds (time base 1/100, the GIF clock). The graph runs
/// on one thread so that its output does not depend on the machine.
final class FilterGraph {
  /// What one `buffer` source accepts.
  struct Input {
    var name: String
    var width: Int
    var height: Int
    var format: AVPixelFormat
  }

  private var graph: UnsafeMutablePointer<AVFilterGraph>?
  private var sources: [String: UnsafeMutablePointer<AVFilterContext>] = [:]
  private let sink: UnsafeMutablePointer<AVFilterContext>
  /// The description, for error messages.
  let description: String

  init(_ description: String, inputs: [Input]) throws(MediaError) {
    self.description = description
    let operation = "build filter graph '\(description)'"
    try FFmpegLibrary.filter.require()
    let graph = try allocated(avfilter_graph_alloc(), operation)
    self.graph = graph
    graph.pointee.nb_threads = 1
    do throws(MediaError) {
      guard let bufferFilter = avfilter_get_by_name("buffer"),
        let sinkFilter = avfilter_get_by_name("buffersink")
      else { throw MediaError(operation, "this FFmpeg build has no buffer/buffersink filters") }

      // Open outputs of the parsed graph = our sources; open inputs = our sink.
      var outputs: UnsafeMutablePointer<AVFilterInOut>? = nil
      var inputsList: UnsafeMutablePointer<AVFilterInOut>? = nil
      defer {
        avfilter_inout_free(&outputs)
        avfilter_inout_free(&inputsList)
      }
      for input in inputs.reversed() {
        let args =
          "video_size=\(input.width)x\(input.height):pix_fmt=\(input.format.rawValue)"
          + ":time_base=1/100:pixel_aspect=1/1"
        var context: UnsafeMutablePointer<AVFilterContext>?
        try check(
          avfilter_graph_create_filter(&context, bufferFilter, input.name, args, nil, graph),
          "\(operation): create source '\(input.name)'")
        let source = try allocated(context, operation)
        sources[input.name] = source
        let link = try allocated(avfilter_inout_alloc(), operation)
        link.pointee.name = av_strdup(input.name)
        link.pointee.filter_ctx = source
        link.pointee.pad_idx = 0
        link.pointee.next = outputs
        outputs = link
      }
      var sinkContext: UnsafeMutablePointer<AVFilterContext>?
      try check(
        avfilter_graph_create_filter(&sinkContext, sinkFilter, "out", nil, nil, graph),
        "\(operation): create sink")
      sink = try allocated(sinkContext, operation)
      let link = try allocated(avfilter_inout_alloc(), operation)
      link.pointee.name = av_strdup("out")
      link.pointee.filter_ctx = sink
      link.pointee.pad_idx = 0
      link.pointee.next = nil
      inputsList = link

      try check(avfilter_graph_parse_ptr(graph, description, &inputsList, &outputs, nil), operation)
      try check(avfilter_graph_config(graph, nil), "\(operation): configure")
    } catch {
      avfilter_graph_free(&self.graph)
      throw error
    }
  }

  deinit { avfilter_graph_free(&graph) }

  /// Sends `frame` to the source `input` (the graph takes its own reference,
  /// so the caller may reuse the frame after `av_frame_make_writable`), or
  /// the end of that input's stream when `frame` is nil.
  func push(_ frame: Frame?, to input: String) throws(MediaError) {
    guard let source = sources[input] else {
      throw MediaError("filter '\(description)'", "no input named '\(input)'")
    }
    let flags = Int32(AV_BUFFERSRC_FLAG_KEEP_REF)
    try check(
      av_buffersrc_add_frame_flags(source, frame?.pointer, frame == nil ? 0 : flags),
      "filter '\(description)': \(frame == nil ? "end" : "send frame to") '\(input)'")
  }

  /// Takes the next output frame into `frame` (unreferencing what it held);
  /// `false` when the graph needs more input or has finished.
  func pull(into frame: Frame) throws(MediaError) -> Bool {
    av_frame_unref(frame.pointer)
    let r = av_buffersink_get_frame(sink, frame.pointer)
    if r == cff_averror_eagain() || r == cff_averror_eof() { return false }
    try check(r, "filter '\(description)': receive frame")
    return true
  }
}
