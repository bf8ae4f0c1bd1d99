import Foundation
import Raster
import Testing

@testable import Media


/// Deterministic synthetic frames: a full-gamut gradient (red across, green
/// down, blue sweeping over time) with a saturated rectangle moving over it.
///
/// `edge` is the width in pixels of the rectangle's soft edge (a linear ramp
/// of coverage, like a blurred or scaled layer); 0 gives a hard edge on whole
/// pixels, the worst case for 4:2:0 chroma.
func syntheticFrame(_ index: Int, width: Int, height: Int, edge: Double = 0) -> Bitmap {
  var bitmap = Bitmap(width: width, height: height)
  let box = syntheticBox(index, width: width, height: height)
  /// Coverage of pixel centre `p` by the span `start..<start+length`.
  func coverage(_ p: Double, _ start: Double, _ length: Double) -> Double {
    if edge == 0 { return p >= start && p < start + length ? 1 : 0 }
    let inside = min(p - start, start + length - p) / edge + 0.5
    return min(max(inside, 0), 1)
  }
  bitmap.bytes.withUnsafeMutableBufferPointer { p in
    for y in 0..<height {
      let cy = coverage(Double(y) + 0.5, box.y, box.height)
      for x in 0..<width {
        let i = (y * width + x) * 4
        let c = cy * coverage(Double(x) + 0.5, box.x, box.width)
        let t = (index * 5 + x / 2) % 510
        let background = [
          Double(x * 255 / (width - 1)), Double(y * 255 / (height - 1)),
          Double(t < 256 ? t : 510 - t),
        ]
        let foreground = [230.0, 180, 40]
        for k in 0..<3 {
          p[i + k] = UInt8((background[k] * (1 - c) + foreground[k] * c).rounded())
        }
        p[i + 3] = 255
      }
    }
  }
  return bitmap
}

/// The moving rectangle of `syntheticFrame`: it moves by fractions of a
/// pixel, so its edges land anywhere relative to the 2×2 chroma blocks.
func syntheticBox(_ index: Int, width: Int, height: Int)
  -> (x: Double, y: Double, width: Double, height: Double)
{
  (
    x: Double((index * 2) % (width - 24)) + 0.5 * Double(index % 2),
    y: Double(height / 4) + 1.5 * Double(index % 7), width: 24, height: 20
  )
}

/// Writes `frames` to `path` and returns the summary.
@discardableResult
func writeClip(
  _ frames: [Bitmap], to path: String, fps: Int = 30, crf: Int = 18, threads: Int = 0
) throws -> VideoSummary {
  let writer = try MP4Writer(
    path: path, width: frames[0].width, height: frames[0].height, fps: fps, crf: crf,
    threads: threads)
  for f in frames { try writer.append(f) }
  return try writer.finish()
}

/// Runs a tool and returns its standard output.
func run(_ tool: String, _ arguments: [String]) throws -> String {
  String(decoding: try runData(tool, arguments), as: UTF8.self)
}

/// Runs a tool and returns its standard output as bytes.
func runData(_ tool: String, _ arguments: [String]) throws -> Data {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [tool] + arguments
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return data
}

/// `ffprobe`'s `key=value` lines for the first video stream.
func probe(_ path: String) throws -> [String: String] {
  let text = try run(
    "ffprobe",
    [
      "-v", "error", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,profile,pix_fmt,width,height,color_primaries,color_transfer,color_space,color_range,r_frame_rate,avg_frame_rate,nb_frames",
      "-of", "default=noprint_wrappers=1", path,
    ])
  var result: [String: String] = [:]
  for line in text.split(separator: "\n") {
    let parts = line.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
  }
  return result
}

/// Top-level ISO BMFF box types of a file, in order.
func topLevelBoxes(_ bytes: [UInt8]) -> [String] {
  var boxes: [String] = []
  var offset = 0
  while offset + 8 <= bytes.count {
    var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
    if size == 1, offset + 16 <= bytes.count {
      size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
    } else if size == 0 {
      size = bytes.count - offset
    }
    boxes.append(type)
    guard size >= 8 else { break }
    offset += size
  }
  return boxes
}

extension Platform {
  /// A file the test wrote itself, read whole (no size cap).
  static func readFile(_ path: String) throws -> [UInt8] {
    try readRegularFile(path, maxBytes: .max)
  }
}
