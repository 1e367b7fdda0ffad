/*
 * font8x16.h - the screen console's built-in bitmap font: 8x16 pixel
 * glyphs for printable ASCII, and a replacement glyph for every other byte.
 *
 * A glyph is FONT_HEIGHT bytes, one per pixel row from the top; the most
 * significant bit is the leftmost pixel.
 */
#ifndef REWIND_FONT8X16_H
#define REWIND_FONT8X16_H

#include "kernel/lib/types.h"

#define FONT_WIDTH  8
#define FONT_HEIGHT 16

const u8 *font8x16_glyph(u8 c);

#endif
