import Geometry
import Raster

/// Where the picture lies in a JPEG decoded at 1/2^k of a size that 2^k
/// does not divide. libjpeg's scaled IDCT (and libavcodec's `lowres`)
/// rounds each side up, so a 4033-pixel side at 1/4 comes back as 1009
/// pixels of which the picture covers 1008.25: the last column holds the
/// picture's last quarter pixel (and the encoder's padding). Drawn as if
/// its 1009 columns spanned the picture, everything lands up to 0.22
/// reduced pixels short of where the whole decode puts it, so the bitmap
/// carries the picture's rectangle (`Bitmap.pictureRect`), and
/// `ImageDownsampling` averages that rectangle.
extension ImageDecoder {
  /// The picture's rectangle in a `width × height` image decoded at
  /// 1/2^`steps` (`reducedSize`), in the decoded pixels, stored
  /// orientation; nil where it fills them (2^steps divides both sides).
  static func reducedPicture(width: Int, height: Int, steps: Int) -> Rect? {
    let divisor = 1 << steps
    guard width % divisor != 0 || height % divisor != 0 else { return nil }
    let scale = Double(divisor)
    return Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
  }

  /// `picture`, a rectangle in a stored `width × height` bitmap, where
  /// `oriented` puts it for EXIF `orientation` (a flip moves the partial
  /// last column or row to the first; a quarter turn swaps the axes).
  static func oriented(_ picture: Rect, width w: Int, height h: Int, orientation: Int) -> Rect {
    let w = Double(w), h = Double(h)
    let x = picture.minX, y = picture.minY, pw = picture.width, ph = picture.height
    switch orientation {
    case 2: return Rect(x: w - x - pw, y: y, width: pw, height: ph)
    case 3: return Rect(x: w - x - pw, y: h - y - ph, width: pw, height: ph)
    case 4: return Rect(x: x, y: h - y - ph, width: pw, height: ph)
    case 5: return Rect(x: y, y: x, width: ph, height: pw)
    case 6: return Rect(x: h - y - ph, y: x, width: ph, height: pw)
    case 7: return Rect(x: h - y - ph, y: w - x - pw, width: ph, height: pw)
    case 8: return Rect(x: y, y: w - x - pw, width: ph, height: pw)
    default: return picture
    }
  }
}
