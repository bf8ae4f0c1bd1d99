import CFFmpeg
import Glibc

/// libavcodec, libavformat and libavfilter, opened the first time transvid
/// needs them (`dlopen`) instead of linked.
///
/// Debian's builds of the three bring about 130 more libraries with them
/// (speech synthesis, TLS, Vulkan, every codec), and the dynamic loader
/// binds tens of thousands of their symbols: linked, that was most of every
/// process's start (`transvid --version`: 184 libraries, about 80 ms of CPU,
/// two thirds of it in symbol lookup), on one core before `main`, also for
/// commands that encode nothing — `check`, `plan`, `list`, a batch whose
/// outputs are up to date. Opened here, those never pay it; a render pays
/// it once, where it first decodes, encodes or maps a GIF's palette (the
/// GIF writer builds that graph on a thread of its own while it chooses the
/// palette).
///
/// Every function of theirs that this module calls has a Swift function of
/// the same name and signature below, which the module's calls resolve to
/// (declarations of the module shadow imported ones); it calls through the
/// pointer `dlsym` found. The C headers still give every type and constant.
/// A call to one of their functions not listed here does not link
/// (undefined reference): it gets its line in a table and a function below.
/// libswscale and libavutil stay linked: they are small, and the first
/// frame's conversions need them.
///
/// A library that cannot be opened, or lacks a function, is a `MediaError`
/// where the work that needs it starts (`require`), so a job that needs it
/// fails with the loader's reason and the rest of a batch goes on.
enum FFmpegLibrary: Sendable {
  case codec, format, filter

  /// The file the loader looks for: the major version the headers are of.
  var fileName: String {
    switch self {
    case .codec: "libavcodec.so.\(LIBAVCODEC_VERSION_MAJOR)"
    case .format: "libavformat.so.\(LIBAVFORMAT_VERSION_MAJOR)"
    case .filter: "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"
    }
  }

  /// Opens this library (once per process; later calls return at once),
  /// or throws why it cannot be used.
  func require() throws(MediaError) {
    switch self {
    case .codec: _ = try FFmpegLibraries.codec.get()
    case .format: _ = try FFmpegLibraries.format.get()
    case .filter: _ = try FFmpegLibraries.filter.get()
    }
  }
}

/// The functions found in each library, opened once (Swift initialises each
/// `static let` on first use, once, whichever thread comes first).
enum FFmpegLibraries {
  static let codec = Result { () throws(MediaError) in try Codec(OpenedLibrary(.codec)) }
  static let format = Result { () throws(MediaError) in try Format(OpenedLibrary(.format)) }
  static let filter = Result { () throws(MediaError) in try Filter(OpenedLibrary(.filter)) }

  /// A library's functions for a call: `require` was called where the work
  /// began, so a failure here means a path that forgot it.
  static func loaded<T>(_ result: Result<T, MediaError>) -> T {
    switch result {
    case .success(let functions): return functions
    case .failure(let error): preconditionFailure("\(error)")
    }
  }

  struct Codec {
    let alloc_context3: @convention(c) (UnsafePointer<AVCodec>?) -> UnsafeMutablePointer<AVCodecContext>?
    let free_context: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVCodecContext>?>?) -> Void
    let find_decoder: @convention(c) (AVCodecID) -> UnsafePointer<AVCodec>?
    let find_encoder: @convention(c) (AVCodecID) -> UnsafePointer<AVCodec>?
    let find_encoder_by_name: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVCodec>?
    let open2:
      @convention(c) (
        UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVCodec>?, UnsafeMutablePointer<OpaquePointer?>?
      ) -> Int32
    let parameters_from_context:
      @convention(c) (UnsafeMutablePointer<AVCodecParameters>?, UnsafePointer<AVCodecContext>?) -> Int32
    let send_frame: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVFrame>?) -> Int32
    let receive_frame: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let send_packet: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPacket>?) -> Int32
    let receive_packet: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let packet_alloc: @convention(c) () -> UnsafeMutablePointer<AVPacket>?
    let packet_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVPacket>?>?) -> Void
    let packet_unref: @convention(c) (UnsafeMutablePointer<AVPacket>?) -> Void
    let new_packet: @convention(c) (UnsafeMutablePointer<AVPacket>?, Int32) -> Int32
    let packet_rescale_ts: @convention(c) (UnsafeMutablePointer<AVPacket>?, AVRational, AVRational) -> Void

    init(_ l: OpenedLibrary) throws(MediaError) {
      alloc_context3 = try l.function("avcodec_alloc_context3")
      free_context = try l.function("avcodec_free_context")
      find_decoder = try l.function("avcodec_find_decoder")
      find_encoder = try l.function("avcodec_find_encoder")
      find_encoder_by_name = try l.function("avcodec_find_encoder_by_name")
      open2 = try l.function("avcodec_open2")
      parameters_from_context = try l.function("avcodec_parameters_from_context")
      send_frame = try l.function("avcodec_send_frame")
      receive_frame = try l.function("avcodec_receive_frame")
      send_packet = try l.function("avcodec_send_packet")
      receive_packet = try l.function("avcodec_receive_packet")
      packet_alloc = try l.function("av_packet_alloc")
      packet_free = try l.function("av_packet_free")
      packet_unref = try l.function("av_packet_unref")
      new_packet = try l.function("av_new_packet")
      packet_rescale_ts = try l.function("av_packet_rescale_ts")
    }
  }

  struct Format {
    let alloc_output_context2:
      @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>?, UnsafePointer<AVOutputFormat>?,
        UnsafePointer<CChar>?, UnsafePointer<CChar>?
      ) -> Int32
    let free_context: @convention(c) (UnsafeMutablePointer<AVFormatContext>?) -> Void
    let new_stream:
      @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafePointer<AVCodec>?) -> UnsafeMutablePointer<AVStream>?
    let write_header:
      @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let interleaved_write_frame:
      @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let write_trailer: @convention(c) (UnsafeMutablePointer<AVFormatContext>?) -> Int32
    let avio_open:
      @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, UnsafePointer<CChar>?, Int32) -> Int32
    let avio_closep: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?) -> Int32

    init(_ l: OpenedLibrary) throws(MediaError) {
      alloc_output_context2 = try l.function("avformat_alloc_output_context2")
      free_context = try l.function("avformat_free_context")
      new_stream = try l.function("avformat_new_stream")
      write_header = try l.function("avformat_write_header")
      interleaved_write_frame = try l.function("av_interleaved_write_frame")
      write_trailer = try l.function("av_write_trailer")
      avio_open = try l.function("avio_open")
      avio_closep = try l.function("avio_closep")
    }
  }

  struct Filter {
    let get_by_name: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    let graph_alloc: @convention(c) () -> UnsafeMutablePointer<AVFilterGraph>?
    let graph_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>?) -> Void
    let graph_config: @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafeMutableRawPointer?) -> Int32
    let graph_create_filter:
      @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>?, UnsafePointer<AVFilter>?,
        UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<AVFilterGraph>?
      ) -> Int32
    let graph_parse_ptr:
      @convention(c) (
        UnsafeMutablePointer<AVFilterGraph>?, UnsafePointer<CChar>?,
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?, UnsafeMutableRawPointer?
      ) -> Int32
    let inout_alloc: @convention(c) () -> UnsafeMutablePointer<AVFilterInOut>?
    let inout_free: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>?) -> Void
    let buffersrc_add_frame_flags:
      @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    let buffersink_get_frame:
      @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32

    init(_ l: OpenedLibrary) throws(MediaError) {
      get_by_name = try l.function("avfilter_get_by_name")
      graph_alloc = try l.function("avfilter_graph_alloc")
      graph_free = try l.function("avfilter_graph_free")
      graph_config = try l.function("avfilter_graph_config")
      graph_create_filter = try l.function("avfilter_graph_create_filter")
      graph_parse_ptr = try l.function("avfilter_graph_parse_ptr")
      inout_alloc = try l.function("avfilter_inout_alloc")
      inout_free = try l.function("avfilter_inout_free")
      buffersrc_add_frame_flags = try l.function("av_buffersrc_add_frame_flags")
      buffersink_get_frame = try l.function("av_buffersink_get_frame")
    }
  }
}

/// A library opened with `dlopen` for the rest of the process (never
/// closed: its functions and objects are used until exit).
struct OpenedLibrary {
  let name: String
  private let handle: UnsafeMutableRawPointer

  init(_ library: FFmpegLibrary) throws(MediaError) {
    name = library.fileName
    // Lazy binding and a scope of its own, as the loader gave it linked.
    guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
      throw MediaError("load \(name)", dlerror().map { String(cString: $0) } ?? "dlopen failed")
    }
    self.handle = handle
  }

  /// The function `symbol`, as the C type `T` its header declares.
  func function<T>(_ symbol: String) throws(MediaError) -> T {
    guard let address = dlsym(handle, symbol) else {
      throw MediaError("load \(name)", "it has no function \(symbol) (another FFmpeg version than the headers'?)")
    }
    return unsafeBitCast(address, to: T.self)
  }
}

// The calls, under the C names (see `FFmpegLibrary`).

private var codec: FFmpegLibraries.Codec { FFmpegLibraries.loaded(FFmpegLibraries.codec) }
private var format: FFmpegLibraries.Format { FFmpegLibraries.loaded(FFmpegLibraries.format) }
private var filter: FFmpegLibraries.Filter { FFmpegLibraries.loaded(FFmpegLibraries.filter) }

func avcodec_alloc_context3(_ c: UnsafePointer<AVCodec>!) -> UnsafeMutablePointer<AVCodecContext>! {
  codec.alloc_context3(c)
}
func avcodec_free_context(_ c: UnsafeMutablePointer<UnsafeMutablePointer<AVCodecContext>?>!) { codec.free_context(c) }
func avcodec_find_decoder(_ id: AVCodecID) -> UnsafePointer<AVCodec>! { codec.find_decoder(id) }
func avcodec_find_encoder(_ id: AVCodecID) -> UnsafePointer<AVCodec>! { codec.find_encoder(id) }
func avcodec_find_encoder_by_name(_ name: UnsafePointer<CChar>!) -> UnsafePointer<AVCodec>! {
  codec.find_encoder_by_name(name)
}
func avcodec_open2(
  _ c: UnsafeMutablePointer<AVCodecContext>!, _ codec_: UnsafePointer<AVCodec>!,
  _ options: UnsafeMutablePointer<OpaquePointer?>!
) -> Int32 { codec.open2(c, codec_, options) }
func avcodec_parameters_from_context(
  _ p: UnsafeMutablePointer<AVCodecParameters>!, _ c: UnsafePointer<AVCodecContext>!
) -> Int32 { codec.parameters_from_context(p, c) }
func avcodec_send_frame(_ c: UnsafeMutablePointer<AVCodecContext>!, _ f: UnsafePointer<AVFrame>!) -> Int32 {
  codec.send_frame(c, f)
}
func avcodec_receive_frame(_ c: UnsafeMutablePointer<AVCodecContext>!, _ f: UnsafeMutablePointer<AVFrame>!) -> Int32 {
  codec.receive_frame(c, f)
}
func avcodec_send_packet(_ c: UnsafeMutablePointer<AVCodecContext>!, _ p: UnsafePointer<AVPacket>!) -> Int32 {
  codec.send_packet(c, p)
}
func avcodec_receive_packet(_ c: UnsafeMutablePointer<AVCodecContext>!, _ p: UnsafeMutablePointer<AVPacket>!) -> Int32 {
  codec.receive_packet(c, p)
}
func av_packet_alloc() -> UnsafeMutablePointer<AVPacket>! { codec.packet_alloc() }
func av_packet_free(_ p: UnsafeMutablePointer<UnsafeMutablePointer<AVPacket>?>!) { codec.packet_free(p) }
func av_packet_unref(_ p: UnsafeMutablePointer<AVPacket>!) { codec.packet_unref(p) }
func av_new_packet(_ p: UnsafeMutablePointer<AVPacket>!, _ size: Int32) -> Int32 { codec.new_packet(p, size) }
func av_packet_rescale_ts(_ p: UnsafeMutablePointer<AVPacket>!, _ from: AVRational, _ to: AVRational) {
  codec.packet_rescale_ts(p, from, to)
}

func avformat_alloc_output_context2(
  _ c: UnsafeMutablePointer<UnsafeMutablePointer<AVFormatContext>?>!, _ oformat: UnsafePointer<AVOutputFormat>!,
  _ formatName: UnsafePointer<CChar>!, _ fileName: UnsafePointer<CChar>!
) -> Int32 { format.alloc_output_context2(c, oformat, formatName, fileName) }
func avformat_free_context(_ c: UnsafeMutablePointer<AVFormatContext>!) { format.free_context(c) }
func avformat_new_stream(_ c: UnsafeMutablePointer<AVFormatContext>!, _ codec_: UnsafePointer<AVCodec>!)
  -> UnsafeMutablePointer<AVStream>!
{ format.new_stream(c, codec_) }
func avformat_write_header(_ c: UnsafeMutablePointer<AVFormatContext>!, _ options: UnsafeMutablePointer<OpaquePointer?>!)
  -> Int32
{ format.write_header(c, options) }
func av_interleaved_write_frame(_ c: UnsafeMutablePointer<AVFormatContext>!, _ p: UnsafeMutablePointer<AVPacket>!)
  -> Int32
{ format.interleaved_write_frame(c, p) }
func av_write_trailer(_ c: UnsafeMutablePointer<AVFormatContext>!) -> Int32 { format.write_trailer(c) }
func avio_open(_ s: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>!, _ url: UnsafePointer<CChar>!, _ flags: Int32)
  -> Int32
{ format.avio_open(s, url, flags) }
func avio_closep(_ s: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>!) -> Int32 { format.avio_closep(s) }

func avfilter_get_by_name(_ name: UnsafePointer<CChar>!) -> UnsafePointer<AVFilter>! { filter.get_by_name(name) }
func avfilter_graph_alloc() -> UnsafeMutablePointer<AVFilterGraph>! { filter.graph_alloc() }
func avfilter_graph_free(_ g: UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>!) { filter.graph_free(g) }
func avfilter_graph_config(_ g: UnsafeMutablePointer<AVFilterGraph>!, _ log: UnsafeMutableRawPointer!) -> Int32 {
  filter.graph_config(g, log)
}
func avfilter_graph_create_filter(
  _ c: UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>!, _ f: UnsafePointer<AVFilter>!,
  _ name: UnsafePointer<CChar>!, _ args: UnsafePointer<CChar>!, _ opaque: UnsafeMutableRawPointer!,
  _ g: UnsafeMutablePointer<AVFilterGraph>!
) -> Int32 { filter.graph_create_filter(c, f, name, args, opaque, g) }
func avfilter_graph_parse_ptr(
  _ g: UnsafeMutablePointer<AVFilterGraph>!, _ filters: UnsafePointer<CChar>!,
  _ inputs: UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>!,
  _ outputs: UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>!, _ log: UnsafeMutableRawPointer!
) -> Int32 { filter.graph_parse_ptr(g, filters, inputs, outputs, log) }
func avfilter_inout_alloc() -> UnsafeMutablePointer<AVFilterInOut>! { filter.inout_alloc() }
func avfilter_inout_free(_ i: UnsafeMutablePointer<UnsafeMutablePointer<AVFilterInOut>?>!) { filter.inout_free(i) }
func av_buffersrc_add_frame_flags(
  _ c: UnsafeMutablePointer<AVFilterContext>!, _ f: UnsafeMutablePointer<AVFrame>!, _ flags: Int32
) -> Int32 { filter.buffersrc_add_frame_flags(c, f, flags) }
func av_buffersink_get_frame(_ c: UnsafeMutablePointer<AVFilterContext>!, _ f: UnsafeMutablePointer<AVFrame>!) -> Int32 {
  filter.buffersink_get_frame(c, f)
}
