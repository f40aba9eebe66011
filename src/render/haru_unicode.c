/* libharu 2.3 writes, for a TrueType font used with its "UTF-8" encoding,
 * a /ToUnicode stream that is a copy of its identity *CID* map
 * ("<0000> <FFFF> 0 begincidrange"): not a ToUnicode map at all.  Poppler
 * warns about it on every page and falls back to the font's own tables;
 * other readers copy garbage.  The codes libharu writes for that encoding
 * are the UTF-16 code units of the text (2 bytes, Identity-H, the CID
 * mapped to a glyph by /CIDToGIDMap), so the true map is the identity:
 * code U+XXXX is the character U+XXXX.  We put that map into the stream
 * libharu made, before anything is written. */
#include "render/haru_unicode.h"

#include <stdio.h>

#include <hpdf_conf.h>
#include <hpdf_objects.h>
#include <hpdf_streams.h>

/* A bfrange may only vary the last byte, and a block holds at most 100 of
 * them: one range per high byte, surrogates (D8-DF) left out. */
static bool write_map(HPDF_Stream s)
{
    static const char head[] =
        "/CIDInit /ProcSet findresource begin\n"
        "12 dict begin\n"
        "begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n"
        "/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n";
    static const char tail[] =
        "endcmap\n"
        "CMapName currentdict /CMap defineresource pop\n"
        "end\n"
        "end\n";
    int rows[256], n = 0;
    for (int hi = 0; hi < 256; hi++)
        if (hi < 0xD8 || hi > 0xDF)
            rows[n++] = hi;
    if (HPDF_Stream_WriteStr(s, head) != HPDF_OK)
        return false;
    for (int start = 0; start < n; start += 100) {
        int count = n - start < 100 ? n - start : 100;
        char line[64];
        snprintf(line, sizeof line, "%d beginbfrange\n", count);
        if (HPDF_Stream_WriteStr(s, line) != HPDF_OK)
            return false;
        for (int i = start; i < start + count; i++) {
            snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", rows[i], rows[i], rows[i]);
            if (HPDF_Stream_WriteStr(s, line) != HPDF_OK)
                return false;
        }
        if (HPDF_Stream_WriteStr(s, "endbfrange\n") != HPDF_OK)
            return false;
    }
    return HPDF_Stream_WriteStr(s, tail) == HPDF_OK;
}

bool ucr_haru_font_fix_unicode(void *font)
{
    HPDF_Dict map = HPDF_Dict_GetItem((HPDF_Dict)font, "ToUnicode", HPDF_OCLASS_DICT);
    if (!map || !map->stream || map->stream->type != HPDF_STREAM_MEMORY)
        return false;
    HPDF_MemStream_FreeData(map->stream);
    return write_map(map->stream);
}
