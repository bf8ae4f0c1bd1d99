import CFFmpeg

/// A failure in the media layer: what was being done, and why it failed.
///
/// `operation` names the step and its subject (`"open encoder libx264"`,
/// `"decode image 'cat.png'"`); `message` is FFmpeg's text for the error code
/// (from `av_strerror`) or transvid's own explanation. `code` is the FFmpeg
/// error code when there is one.
public struct MediaError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The step that failed, with its subject.
  public var operation: String
  /// Why it failed.
  public var message: String
  /// The negative FFmpeg (`AVERROR`) code, or `nil` for transvid's own checks.
  public var code: Int32?

  /// An error with transvid's own message.
  public init(_ operation: String, _ message: String, code: Int32? = nil) {
    self.operation = operation
    self.message = message
    self.code = code
  }

  /// An error for an FFmpeg return code; the message comes from `av_strerror`,
  /// followed by the last error FFmpeg logged on this thread, if any.
  public init(_ operation: String, code: Int32) {
    var message = Self.ffmpegMessage(code)
    if let detail = MediaLog.takeLastError(), detail != message { message += " (\(detail))" }
    self.init(operation, message, code: code)
  }

  /// `"operation: message"`.
  public var description: String { "\(operation): \(message)" }

  /// FFmpeg's text for an error code (`av_err2str`).
  static func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    return buffer.withUnsafeMutableBufferPointer { b in
      String(cString: cff_err2str(code, b.baseAddress, b.count))
    }
  }
}

/// Throws a `MediaError` for a negative FFmpeg return code; passes others through.
@discardableResult
package func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(MediaError) -> Int32 {
  if code < 0 { throw MediaError(operation(), code: code) }
  return code
}

/// Unwraps an FFmpeg allocation; `nil` means the allocator ran out of memory.
package func allocated<T>(_ value: T?, _ operation: @autoclosure () -> String) throws(MediaError) -> T {
  guard let value else { throw MediaError(operation(), code: cff_averror(ENOMEM)) }
  return value
}
