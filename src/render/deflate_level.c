/* undercroft — the zlib level the PDF backends deflate their pages at.
 *
 * cairo and libharu compress every page, font and image stream with
 * deflateInit(Z_DEFAULT_COMPRESSION), which is level 6, and neither lets a
 * program choose.  Level 6 was a fifth of the default booklet's CPU time
 * (perf: 65 of 340 ms, all of it deflating cairo's map pages).  Measured
 * on the page streams of that booklet (2.2 MB before deflating):
 *
 *     level     4        5        6
 *     time      27 ms    40 ms    70 ms
 *     deflated  668 KB   645 KB   635 KB
 *
 * Level 4 is the knee: 43 ms less for 5 % more deflated bytes (2.5 % of
 * the file).  A program's own definition of deflateInit_ comes before
 * zlib's for every library it loads (the linker exports it because
 * libcairo refers to it), so this one, which only changes the default and
 * keeps every level asked for by name, is the libraries' deflateInit too.
 * The output stays deterministic: same level, same bytes, on every run. */
#include <zlib.h>

/* The level a stream gets when its writer asks for zlib's default. */
enum { UCR_DEFLATE_DEFAULT_LEVEL = 4 };

int deflateInit_(z_streamp strm, int level, const char *version, int stream_size)
{
    if (level == Z_DEFAULT_COMPRESSION)
        level = UCR_DEFLATE_DEFAULT_LEVEL;
    /* deflateInit's own parameters (zlib.h): a 32 KB window, memLevel 8. */
    return deflateInit2_(strm, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version,
                         stream_size);
}
