#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>
