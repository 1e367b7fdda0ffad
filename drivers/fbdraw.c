/*
 * fbdraw.c - glyphs into a linear RGB framebuffer; see fbdraw.h.
 *
 * Every pixel of a glyph cell is written, foreground or background, so a
 * glyph replaces whatever the cell showed without reading it first.
 *
 * The font is scaled by an integer factor, not resampled: on a laptop's
 * 1920x1080 or 3840x2160 panel an 8x16 glyph is 2-3 mm tall, too small to
 * read, and whole-pixel blocks keep the bitmap font's edges sharp.
 */
#include "drivers/fbdraw.h"
#include "drivers/font8x16.h"

/* One 8-bit colour channel scaled to `size` bits at bit `pos`. */
static u32
channel(u8 v, u8 pos, u8 size)
{
	if (size == 0 || pos + size > 32)
		return 0; /* absent, or a layout that makes no sense */
	u32 c = size <= 8 ? (u32)v >> (8 - size) : (u32)v << (size - 8);
	return c << pos;
}

u32
fbdraw_pixel(const struct boot_framebuffer *fb, u32 rgb)
{
	return channel(rgb >> 16, fb->red_pos, fb->red_size) |
	       channel(rgb >> 8, fb->green_pos, fb->green_size) |
	       channel(rgb, fb->blue_pos, fb->blue_size);
}

void
fbdraw_init(struct fbdraw *d, void *base, const struct boot_framebuffer *fb, u32 fg_rgb, u32 bg_rgb)
{
	*d = (struct fbdraw){
		.base = base,
		.pitch = fb->pitch,
		.width = fb->width,
		.height = fb->height,
		.bytes_pp = fb->bpp / 8,
		.fg = fbdraw_pixel(fb, fg_rgb),
		.bg = fbdraw_pixel(fb, bg_rgb),
		.scale = 1,
	};
}

unsigned
fbdraw_choose_scale(u32 width, u32 height, unsigned min_rows)
{
	unsigned scale = 1;

	while (scale < FBDRAW_MAX_SCALE && width / (FONT_WIDTH * (scale + 1)) >= FBDRAW_MIN_COLS &&
	       height / (FONT_HEIGHT * (scale + 1)) >= min_rows)
		scale++;
	return scale;
}

/* Pixels are little-endian, as on every x86 framebuffer. */
static inline void
put_pixel(u8 *p, unsigned bytes_pp, u32 v)
{
	switch (bytes_pp) {
	case 4:
		*(u32 *)p = v;
		break;
	case 2:
		*(u16 *)p = (u16)v;
		break;
	default:
		p[0] = (u8)v;
		p[1] = (u8)(v >> 8);
		p[2] = (u8)(v >> 16);
		break;
	}
}

void
fbdraw_clear(const struct fbdraw *d)
{
	u8 *line = d->base;

	for (u32 y = 0; y < d->height; y++, line += d->pitch)
		for (u32 x = 0; x < d->width; x++)
			put_pixel(line + (size_t)x * d->bytes_pp, d->bytes_pp, d->bg);
}

void
fbdraw_glyph(const struct fbdraw *d, u32 x, u32 y, const u8 *glyph)
{
	u8 *line = d->base + (size_t)y * d->pitch + (size_t)x * d->bytes_pp;

	for (unsigned r = 0; r < FONT_HEIGHT * d->scale; r++, line += d->pitch) {
		u8 bits = glyph[r / d->scale];
		u8 *p = line;

		for (unsigned c = 0; c < FONT_WIDTH * d->scale; c++, p += d->bytes_pp)
			put_pixel(p, d->bytes_pp, bits & (0x80 >> (c / d->scale)) ? d->fg : d->bg);
	}
}
