// Static inline shims for the FFmpeg macros that Swift cannot import
// (function-like and structure macros). Everything else imports as is.
#ifndef TRANSVID_CFFMPEG_SHIM_H
#define TRANSVID_CFFMPEG_SHIM_H

#include <errno.h>
#include <malloc.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>

#define CFF_SHIM static inline __attribute__((__always_inline__))

/// `AVERROR(e)`: a POSIX errno as an FFmpeg error code.
CFF_SHIM int cff_averror(int e) { return AVERROR(e); }
/// `AVERROR_EOF`.
CFF_SHIM int cff_averror_eof(void) { return AVERROR_EOF; }
/// `AVERROR(EAGAIN)`.
CFF_SHIM int cff_averror_eagain(void) { return AVERROR(EAGAIN); }
/// `AV_NOPTS_VALUE`.
CFF_SHIM int64_t cff_av_nopts_value(void) { return AV_NOPTS_VALUE; }
/// `av_err2str`: writes the message for `code` into `buffer`.
CFF_SHIM const char *cff_err2str(int code, char *buffer, size_t size) {
  av_strerror(code, buffer, size);
  return buffer;
}

/// Makes glibc fill every block it hands out with `~byte` (and freed blocks
/// with `byte`): `mallopt(M_PERTURB, byte)`; 0 stops it. See `HeapFill`.
CFF_SHIM int cff_fill_allocations(int byte) { return mallopt(M_PERTURB, byte); }

/// Keeps freed blocks of up to `mapped` bytes in the process, and the heap's
/// free top up to `trimmed` bytes: `mallopt(M_MMAP_THRESHOLD, mapped)` and
/// `mallopt(M_TRIM_THRESHOLD, trimmed)`. 1 when both were taken. See
/// `HeapReuse`.
CFF_SHIM int cff_keep_freed_blocks(int mapped, int trimmed) {
  return mallopt(M_MMAP_THRESHOLD, mapped) == 1 && mallopt(M_TRIM_THRESHOLD, trimmed) == 1;
}

#endif
