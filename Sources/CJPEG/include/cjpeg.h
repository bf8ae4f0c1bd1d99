// libjpeg-turbo's decoder, for Media's ImageDecoder: a JPEG straight to
// packed RGBA (its SIMD inverse DCT, upsampling and colour conversion, the
// decoder browsers use; a CMYK one turned into RGB as browsers turn it),
// scaled by 1/2, 1/4 or 1/8 in the inverse DCT, and the EXIF orientation
// read by libexif.
//
// A C target, not a system library: libjpeg reports errors by calling a
// function that must not return (it longjmps back to a setjmp here), which
// Swift cannot do, and its header needs <stdio.h> first. So Swift sees only
// these functions and an opaque decoder.
//
// Strict where pixels are at stake: a warning that means pixel data is lost
// (the data ends early, a bad Huffman code, a missing restart marker) fails
// the decode and is written into the caller's `corruption` buffer, and the
// caller fails the image with it. Other warnings (extraneous bytes before a
// marker, an odd JFIF version) leave every pixel as encoded, and the decode
// goes on, as a browser's does. After an error (12-bit or lossless JPEG)
// the caller decodes the file with libavcodec instead, which gives the
// error or picture it always gave.
#ifndef TRANSVID_CJPEG_H
#define TRANSVID_CJPEG_H
#include <stddef.h>
#include <stdint.h>

/// The size of the `corruption` buffer: libjpeg's longest message (JMSG_LENGTH_MAX).
#define CJPEG_MESSAGE_SIZE 200

typedef struct cjpeg_decoder cjpeg_decoder;

/// Reads `data`'s headers and prepares a decode at 1/2^`scale_shift` of its
/// size (0…3; each side rounded up). Sets the output size and the EXIF
/// orientation (1…8, 1 without one). NULL when libjpeg fails or loses pixel
/// data, or the file has more than `max_scans` scans. `corruption` (CJPEG_MESSAGE_SIZE
/// bytes, or NULL) is emptied here and, by this call or `cjpeg_read`, given
/// libjpeg's message for the first warning that loses pixel data
/// ("Corrupt JPEG data: premature end of data segment").
/// `data` and `corruption` must outlive the decoder.
cjpeg_decoder *cjpeg_open(
    const uint8_t *data, size_t size, int32_t scale_shift, int32_t *width, int32_t *height,
    int32_t *orientation, int32_t max_scans, char *corruption);

/// The ICC profile the JPEG embeds (its APP2 chunks joined, by libjpeg's
/// `jpeg_read_icc_profile`): 1 with `*icc` (malloc'd, the caller frees
/// it) and `*size` set; 0 without one. After `cjpeg_open`, before
/// `cjpeg_read`.
int32_t cjpeg_icc(cjpeg_decoder *decoder, uint8_t **icc, uint32_t *size);

/// For a CMYK (or YCCK) JPEG: `cjpeg_read` writes its CMYK samples as
/// libjpeg gives them (Adobe's inverted CMYK, four bytes a pixel) instead
/// of RGBA, for the caller's colour management; 1 when the JPEG is CMYK,
/// 0 (and no change) otherwise. Before `cjpeg_read`.
int32_t cjpeg_keep_cmyk(cjpeg_decoder *decoder);

/// Decodes every row into `rgba` (width × 4 bytes a row, alpha 255) and
/// frees the decoder. 0 on success; -1 when libjpeg failed or lost pixel
/// data (`rgba` then holds partial rows).
int32_t cjpeg_read(cjpeg_decoder *decoder, uint8_t *rgba);

/// Frees a decoder that will not be read.
void cjpeg_close(cjpeg_decoder *decoder);

/// The Orientation (tag 0x0112, a SHORT of 1…8) of an EXIF block's IFD0,
/// as libexif reads it: `data` is "Exif\0\0" and the TIFF structure (a JPEG's
/// APP1 segment; a PNG's eXIf chunk after that header). 0 when the block
/// is malformed or records none.
int32_t cjpeg_exif_orientation(const uint8_t *data, size_t size);
#endif
