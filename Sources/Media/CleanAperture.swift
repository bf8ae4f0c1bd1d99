import Glibc

/// The picture's own size inside a QuickTime movie's padded frames: a clean
/// aperture (`clap`) in the video's sample description and the track header's
/// width and height, as QuickTime's file format has a movie name the part of
/// its encoded pixels to show. AVFoundation's players and image generators
/// show the clean aperture by default (`AVVideoApertureMode.cleanAperture`),
/// and FFmpeg (7.1 and later) crops to it, so a 1179-pixel canvas padded to
/// 1180 for the encoder plays 1179 wide.
///
/// libavformat's `mov` muxer writes a `clap` only for uncompressed video, so
/// it is added to the finished file: the muxer writes the movie atom (`moov`)
/// last, after the media data, so lengthening it moves no sample's offset.
/// The aperture is the top left `width × height` of the coded frame (the
/// rest repeats the last column and row): centred, it lies half a pixel
/// left and up of the coded frame's centre for each pixel it leaves out.
enum CleanAperture {
  /// Adds a clean aperture of `width × height` pixels, at the top left of
  /// the coded `codedWidth × codedHeight` frame, to the QuickTime movie at
  /// `path`, and gives its track header that size.
  static func write(
    width: Int, height: Int, codedWidth: Int, codedHeight: Int, into path: String
  ) throws(MediaError) {
    let operation = "write the clean aperture of '\(path)'"
    let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { throw MediaError(operation, Platform.errnoMessage()) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw MediaError(operation, Platform.errnoMessage()) }
    let fileSize = Int(info.st_size)
    // The top-level atoms: the movie atom must be the last.
    var offset = 0, movie: (offset: Int, size: Int)?
    while offset + 8 <= fileSize {
      let header = try read(fd, at: offset, count: 16, operation)
      var size = Int(be32(header, 0))
      if size == 1, header.count == 16 { size = Int(be64(header, 8)) }
      guard size >= 8, offset + size <= fileSize else { throw MediaError(operation, "atom at \(offset) has length \(size)") }
      if fourCC(header, 4) == "moov" { movie = (offset, size) }
      offset += size
    }
    guard let movie, movie.offset + movie.size == fileSize else {
      throw MediaError(operation, "the movie atom is not the file's last")
    }
    var moov = try read(fd, at: movie.offset, count: movie.size, operation)
    guard be32(moov, 0) == UInt32(movie.size) else { throw MediaError(operation, "the movie atom has a 64-bit length") }
    guard let trak = child("trak", of: 0, in: moov), let tkhd = child("tkhd", of: trak, in: moov),
      let mdia = child("mdia", of: trak, in: moov), let minf = child("minf", of: mdia, in: moov),
      let stbl = child("stbl", of: minf, in: moov), let stsd = child("stsd", of: stbl, in: moov)
    else { throw MediaError(operation, "the movie has no video track with a sample description") }
    // The sample description's first entry follows its version, flags and count.
    let entry = stsd + 16
    guard entry + 8 <= stsd + Int(be32(moov, stsd)) else { throw MediaError(operation, "the sample description is empty") }
    let clap: [UInt8] = [40, 0x636C_6170, width, 1, height, 1, width - codedWidth, 2, height - codedHeight, 2]
      .enumerated().flatMap { i, v in i == 0 ? bytes(UInt32(v)) : bytes(UInt32(bitPattern: Int32(v))) }
    moov.insert(contentsOf: clap, at: entry + Int(be32(moov, entry)))
    for atom in [0, trak, mdia, minf, stbl, stsd, entry] {
      setBE32(&moov, atom, be32(moov, atom) + UInt32(clap.count))
    }
    // The track header ends with the track's width and height, 16.16 fixed point.
    let end = tkhd + Int(be32(moov, tkhd))
    setBE32(&moov, end - 8, UInt32(width) << 16)
    setBE32(&moov, end - 4, UInt32(height) << 16)
    var written = 0
    while written < moov.count {
      let n = moov[written...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(movie.offset + written)) }
      guard n > 0 else { throw MediaError(operation, Platform.errnoMessage()) }
      written += n
    }
  }

  /// The offset in `moov` of the first atom of type `type` inside the atom at `parent`.
  private static func child(_ type: String, of parent: Int, in moov: [UInt8]) -> Int? {
    let end = parent + Int(be32(moov, parent))
    var at = parent + 8
    while at + 8 <= end {
      let size = Int(be32(moov, at))
      guard size >= 8, at + size <= end else { return nil }
      if fourCC(moov, at + 4) == type { return at }
      at += size
    }
    return nil
  }

  private static func read(_ fd: Int32, at offset: Int, count: Int, _ operation: String) throws(MediaError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
      let n = buffer[got...].withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset + got)) }
      guard n >= 0 else { throw MediaError(operation, Platform.errnoMessage()) }
      if n == 0 { break }
      got += n
    }
    return Array(buffer[..<got])
  }

  private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    guard i + 4 <= b.count else { return 0 }
    return b[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private static func be64(_ b: [UInt8], _ i: Int) -> UInt64 {
    b[i..<i + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }

  private static func fourCC(_ b: [UInt8], _ i: Int) -> String {
    String(decoding: b[i..<i + 4], as: UTF8.self)
  }

  private static func bytes(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

  private static func setBE32(_ b: inout [UInt8], _ i: Int, _ v: UInt32) {
    b.replaceSubrange(i..<i + 4, with: bytes(v))
  }
}
