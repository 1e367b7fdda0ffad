/*
 * fbdraw.h - drawing font glyphs into a linear RGB framebuffer of 16, 24
 * or 32 bits per pixel, in whatever channel layout the boot loader
 * reported.
 *
 * Hardware-free: it writes through a pointer, so the host unit tests hand
 * it an array. It only ever writes (reads from write-combining video memory
 * are very slow). Not for anything but the console's two colours.
 */
#ifndef REWIND_FBDRAW_H
#define REWIND_FBDRAW_H

#include "kernel/lib/types.h"
#include "kernel/multiboot2.h"

struct fbdraw {
	u8 *base;	   /* pixel (0, 0) */
	u32 pitch;	   /* bytes from one pixel row to the next */
	u32 width, height; /* in pixels */
	unsigned bytes_pp; /* 2, 3 or 4 */
	u32 fg, bg;	   /* the two colours as pixel values */
	unsigned scale;	   /* each font pixel is drawn as scale x scale pixels */
};

/*
 * The console's smallest useful screen, in cells: the font is scaled up
 * only as far as keeps it (more rows where asked: the fbcon_rows knob).
 */
#define FBDRAW_MIN_COLS	 80
#define FBDRAW_MIN_ROWS	 30
#define FBDRAW_MAX_SCALE 8

/* fb must be FB_TYPE_RGB with bpp 16, 24 or 32; colours are 0xrrggbb. Scale 1. */
void fbdraw_init(struct fbdraw *d, void *base, const struct boot_framebuffer *fb, u32 fg_rgb,
		 u32 bg_rgb);
/* The pixel value of colour 0xrrggbb in fb's layout. */
u32 fbdraw_pixel(const struct boot_framebuffer *fb, u32 rgb);
/* Fills the whole visible area with the background colour. */
void fbdraw_clear(const struct fbdraw *d);
/*
 * The font scale for a width x height pixel screen: the largest integer
 * factor (up to FBDRAW_MAX_SCALE) that still leaves FBDRAW_MIN_COLS x
 * min_rows cells, and 1 on a screen too small even for that.
 */
unsigned fbdraw_choose_scale(u32 width, u32 height, unsigned min_rows);
/* Draws an 8x16 glyph (font8x16.h), scaled, with its top left corner at pixel (x, y). */
void fbdraw_glyph(const struct fbdraw *d, u32 x, u32 y, const u8 *glyph);

#endif
