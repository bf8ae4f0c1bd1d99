#include "cjpeg.h"
#include <libexif/exif-data.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct cjpeg_decoder {
  struct jpeg_decompress_struct info;
  // A CMYK or YCCK file, decoded to CMYK and turned into RGB here
  // (`cmyk_to_rgb`) unless the caller keeps the samples (`cjpeg_keep_cmyk`).
  int cmyk;
  int keep_cmyk;
  struct jpeg_error_mgr error;
  struct jpeg_progress_mgr progress;
  int32_t max_scans;
  // Whether a warning said pixel data is lost (`loses_pixels`).
  int lost_pixels;
  // Where the first warning that means lost pixel data is written (the
  // caller's buffer of CJPEG_MESSAGE_SIZE bytes; see cjpeg.h).
  char *corruption;
  jmp_buf fail;
};

static void fail(j_common_ptr info);

// A progressive file of thousands of tiny scans makes libjpeg redo the
// whole image for each (libjpeg-turbo's advice: cap them, as djpeg's
// -maxscans does). ImageDecoder refuses such a file from its markers first
// (Limits.maxScans); the same cap here holds for scans the marker walk did
// not see as such.
static void progress(j_common_ptr info) {
  cjpeg_decoder *d = (cjpeg_decoder *)info->client_data;
  if (d->info.input_scan_number > d->max_scans) fail(info);
}

static void fail(j_common_ptr info) {
  cjpeg_decoder *d = (cjpeg_decoder *)info->client_data;
  longjmp(d->fail, 1);
}

// Whether warning `code` means pixel data is missing or wrong: the
// entropy-coded data ran into a marker or the end of the file before the
// image was complete (libjpeg fills the rest with zeros, a flat colour),
// or a code in it is invalid. Other warnings (extraneous bytes before a
// marker, an odd JFIF version or progression, a bad ICC marker) leave
// every pixel as encoded.
static int loses_pixels(int code) {
  return code == JWRN_HIT_MARKER || code == JWRN_JPEG_EOF || code == JWRN_HUFF_BAD_CODE || code == JWRN_ARITH_BAD_CODE
      || code == JWRN_MUST_RESYNC;
}

// Warnings are counted (error.num_warnings), never printed; one that loses
// pixels is noted, and the first such is kept as text for the caller's error.
static void message(j_common_ptr info, int level) {
  if (level >= 0) return;
  info->err->num_warnings++;
  cjpeg_decoder *d = (cjpeg_decoder *)info->client_data;
  if (!loses_pixels(info->err->msg_code)) return;
  d->lost_pixels = 1;
  if (d->corruption && d->corruption[0] == 0) {
    char text[JMSG_LENGTH_MAX];
    info->err->format_message(info, text);
    snprintf(d->corruption, CJPEG_MESSAGE_SIZE, "%s", text);
  }
}

int32_t cjpeg_exif_orientation(const uint8_t *data, size_t size) {
  if (size < 6 || memcmp(data, "Exif\0\0", 6) != 0) return 0;
  ExifData *exif = exif_data_new();
  if (!exif) return 0;
  // Read only: no tags added, fixed or interpreted beyond parsing.
  exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
  exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
  exif_data_set_option(exif, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
  exif_data_load_data(exif, data, (unsigned int)size);
  int32_t value = 0;
  ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
  if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 && entry->size >= 2) {
    value = exif_get_short(entry->data, exif_data_get_byte_order(exif));
  }
  exif_data_unref(exif);
  return value >= 1 && value <= 8 ? value : 0;
}

// The Orientation tag (0x0112) of the first APP1 "Exif" segment's IFD0; 1 without one.
static int32_t orientation(struct jpeg_decompress_struct *info) {
  for (jpeg_saved_marker_ptr m = info->marker_list; m; m = m->next) {
    if (m->marker != JPEG_APP0 + 1 || m->data_length < 6 || memcmp(m->data, "Exif\0\0", 6) != 0) continue;
    int32_t value = cjpeg_exif_orientation(m->data, m->data_length);
    return value ? value : 1;
  }
  return 1;
}

cjpeg_decoder *cjpeg_open(
    const uint8_t *data, size_t size, int32_t scale_shift, int32_t *width, int32_t *height,
    int32_t *orientation_out, int32_t max_scans, char *corruption) {
  if (corruption) corruption[0] = 0;
  cjpeg_decoder *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->max_scans = max_scans;
  d->corruption = corruption;
  d->info.err = jpeg_std_error(&d->error);
  d->error.error_exit = fail;
  d->error.emit_message = message;
  d->info.client_data = d;
  d->progress.progress_monitor = progress;
  if (setjmp(d->fail)) {
    jpeg_destroy_decompress(&d->info);
    free(d);
    return NULL;
  }
  jpeg_create_decompress(&d->info);
  d->info.progress = &d->progress;
  jpeg_mem_src(&d->info, data, (unsigned long)size);
  jpeg_save_markers(&d->info, JPEG_APP0 + 1, 0xFFFF);
  jpeg_save_markers(&d->info, JPEG_APP0 + 2, 0xFFFF);  // ICC profile chunks
  jpeg_read_header(&d->info, TRUE);
  // libjpeg turns neither CMYK nor YCCK into RGB: it gives CMYK, four
  // samples a pixel, and `cmyk_to_rgb` makes RGBA of them in place.
  d->cmyk = d->info.jpeg_color_space == JCS_CMYK || d->info.jpeg_color_space == JCS_YCCK;
  d->info.out_color_space = d->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  d->info.scale_num = 1;
  d->info.scale_denom = 1u << scale_shift;
  d->info.dct_method = JDCT_ISLOW;  // exact integer IDCT: the same bits with or without SIMD
  d->info.do_fancy_upsampling = TRUE;
  jpeg_start_decompress(&d->info);
  if (d->lost_pixels || d->info.output_components != 4) {
    jpeg_destroy_decompress(&d->info);
    free(d);
    return NULL;
  }
  *width = (int32_t)d->info.output_width;
  *height = (int32_t)d->info.output_height;
  *orientation_out = orientation(&d->info);
  return d;
}

int32_t cjpeg_icc(cjpeg_decoder *d, uint8_t **icc, uint32_t *size) {
  JOCTET *data = NULL;
  unsigned int length = 0;
  if (setjmp(d->fail)) return 0;  // a broken profile is no profile; the decode goes on
  if (!jpeg_read_icc_profile(&d->info, &data, &length) || !data) return 0;
  *icc = data;
  *size = (uint32_t)length;
  return 1;
}

// A row of CMYK samples as RGBA, in place, as Chromium's JPEG decoder (and
// Firefox's) makes them: the samples are taken as Adobe's inverted CMYK
// (what Photoshop and every common encoder writes, with or without its
// APP14 marker), so each colour is its sample times K's, over 255, rounded
// down: (255, 255, 255, 255) is white, 255.
static void cmyk_to_rgb(uint8_t *row, JDIMENSION width) {
  for (JDIMENSION x = 0; x < width; x++) {
    uint8_t *p = row + 4 * (size_t)x;
    unsigned k = p[3];
    p[0] = (uint8_t)(p[0] * k / 255);
    p[1] = (uint8_t)(p[1] * k / 255);
    p[2] = (uint8_t)(p[2] * k / 255);
    p[3] = 255;
  }
}

int32_t cjpeg_keep_cmyk(cjpeg_decoder *d) {
  if (!d->cmyk) return 0;
  d->keep_cmyk = 1;
  return 1;
}

int32_t cjpeg_read(cjpeg_decoder *d, uint8_t *rgba) {
  if (setjmp(d->fail)) {
    jpeg_destroy_decompress(&d->info);
    free(d);
    return -1;
  }
  size_t stride = (size_t)d->info.output_width * 4;
  JSAMPROW rows[16];
  while (d->info.output_scanline < d->info.output_height) {
    JDIMENSION first = d->info.output_scanline;
    int n = 0;
    for (; n < 16 && first + (JDIMENSION)n < d->info.output_height; n++) rows[n] = rgba + (first + (JDIMENSION)n) * stride;
    JDIMENSION read = jpeg_read_scanlines(&d->info, rows, (JDIMENSION)n);
    if (read == 0) break;
    if (d->cmyk && !d->keep_cmyk)
      for (JDIMENSION r = 0; r < read; r++) cmyk_to_rgb(rows[r], d->info.output_width);
  }
  int32_t result = d->info.output_scanline == d->info.output_height ? 0 : -1;
  if (result == 0) jpeg_finish_decompress(&d->info);
  if (d->lost_pixels) result = -1;
  jpeg_destroy_decompress(&d->info);
  free(d);
  return result;
}

void cjpeg_close(cjpeg_decoder *d) {
  if (!d) return;
  jpeg_destroy_decompress(&d->info);
  free(d);
}
