/*
 * test_fbcon.c - the screen console on the host: the font, the text grid
 * (wrap, scroll, tab, backspace, carriage return, escape skipping, redraw
 * tracking), glyph drawing into in-memory framebuffers of 16, 24 and 32
 * bits per pixel, and fbcon_init's glue against a fake ioremap.
 */
#include "tests/unit/unit.h"
#include "drivers/font8x16.c"
#include "drivers/textgrid.c"
#include "drivers/fbdraw.c"
#include "drivers/fbcon.c"

/* ---- stand-ins for the kernel services fbcon.c uses ---------------------- */

static struct console *registered;
static void *mapped;
static size_t mapped_size;
static enum iomap_cache mapped_cache;

void
register_console(struct console *c)
{
	registered = c;
}

void *
ioremap(phys_addr_t phys, size_t size, enum iomap_cache cache)
{
	free(mapped);
	mapped = malloc(size);
	memset(mapped, 0xa5, size); /* what the firmware left on the screen */
	mapped_size = size;
	mapped_cache = cache;
	return mapped;
}

/* ---- helpers --------------------------------------------------------------- */

/* Row `row` of the grid as a string, trailing blanks dropped. */
static const char *
line(const struct textgrid *g, unsigned row)
{
	static char buf[256];
	unsigned n = g->cols;

	memcpy(buf, g->cells + (size_t)row * g->cols, n);
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

static void
feed(struct textgrid *g, const char *s)
{
	textgrid_write(g, s, strlen(s));
}

static struct textgrid
grid_of(unsigned cols, unsigned rows)
{
	static u8 c[64 * 16], s[64 * 16];
	struct textgrid g;

	textgrid_init(&g, c, s, cols, rows);
	return g;
}

static u32
pixel_at(const struct fbdraw *d, u32 x, u32 y)
{
	const u8 *p = d->base + (size_t)y * d->pitch + (size_t)x * d->bytes_pp;
	u32 v = 0;

	for (unsigned i = 0; i < d->bytes_pp; i++)
		v |= (u32)p[i] << (8 * i);
	return v;
}

static struct boot_framebuffer
rgb_fb(u32 width, u32 height, u8 bpp, u8 rpos, u8 rsize, u8 gpos, u8 gsize, u8 bpos, u8 bsize)
{
	return (struct boot_framebuffer){
		.addr = 0xfd000000,
		.width = width,
		.height = height,
		.pitch = width * (bpp / 8) + 12, /* padded rows, as real cards have */
		.bpp = bpp,
		.type = FB_TYPE_RGB,
		.red_pos = rpos,
		.red_size = rsize,
		.green_pos = gpos,
		.green_size = gsize,
		.blue_pos = bpos,
		.blue_size = bsize,
	};
}

/* Every pixel of the cell at (x, y) is fg where the glyph has a bit, else bg. */
static bool
cell_matches(const struct fbdraw *d, u32 x, u32 y, u8 ch)
{
	const u8 *glyph = font8x16_glyph(ch);

	for (int r = 0; r < FONT_HEIGHT; r++)
		for (int c = 0; c < FONT_WIDTH; c++)
			if (pixel_at(d, x + c, y + r) != (glyph[r] & (0x80 >> c) ? d->fg : d->bg))
				return false;
	return true;
}

/* Draws 'g' in the middle of a 3x3-cell screen; nothing else may change. */
static void
check_glyph_drawn(const struct boot_framebuffer *fb, u32 want_fg, u32 want_bg)
{
	size_t size = (size_t)fb->pitch * fb->height;
	u8 *mem = malloc(size);
	struct fbdraw d;
	int changed_outside = 0;

	memset(mem, 0xa5, size);
	fbdraw_init(&d, mem, fb, 0x123456, 0x0000ff);
	CHECK_EQ(d.fg, want_fg);
	CHECK_EQ(d.bg, want_bg);
	fbdraw_glyph(&d, FONT_WIDTH, FONT_HEIGHT, font8x16_glyph('g'));
	CHECK(cell_matches(&d, FONT_WIDTH, FONT_HEIGHT, 'g'));
	for (u32 y = 0; y < fb->height; y++) {
		for (size_t i = 0; i < fb->pitch; i++) {
			bool inside = y >= FONT_HEIGHT && y < 2 * FONT_HEIGHT &&
				      i >= FONT_WIDTH * d.bytes_pp &&
				      i < 2 * FONT_WIDTH * d.bytes_pp;
			changed_outside += !inside && mem[y * fb->pitch + i] != 0xa5;
		}
	}
	CHECK_EQ(changed_outside, 0);
	free(mem);
}

/* ---- the font ---------------------------------------------------------------- */

static bool
glyph_empty(const u8 *glyph)
{
	for (int r = 0; r < FONT_HEIGHT; r++)
		if (glyph[r])
			return false;
	return true;
}

UNIT_TEST(font_every_printable_glyph_has_ink_except_space)
{
	CHECK(glyph_empty(font8x16_glyph(' ')));
	for (int c = 0x21; c <= 0x7e; c++)
		if (glyph_empty(font8x16_glyph(c))) {
			printf("    glyph 0x%02x is empty\n", c);
			CHECK(!"empty glyph");
		}
}

UNIT_TEST(font_glyphs_are_distinct_and_others_get_the_replacement)
{
	const u8 *repl = font8x16_glyph(0x7f);

	CHECK(!glyph_empty(repl));
	CHECK(font8x16_glyph(0x00) == repl);
	CHECK(font8x16_glyph(0x1f) == repl);
	CHECK(font8x16_glyph(0xff) == repl);
	for (int a = 0x20; a <= 0x7e; a++) {
		CHECK(memcmp(font8x16_glyph(a), repl, FONT_HEIGHT) != 0);
		for (int b = a + 1; b <= 0x7e; b++)
			if (memcmp(font8x16_glyph(a), font8x16_glyph(b), FONT_HEIGHT) == 0) {
				printf("    glyphs '%c' and '%c' are the same\n", a, b);
				CHECK(!"identical glyphs");
			}
	}
}

UNIT_TEST(font_keeps_column_7_blank_except_underscore)
{
	for (int c = 0x20; c <= 0x7e; c++) {
		const u8 *glyph = font8x16_glyph(c);
		bool touches = false;

		for (int r = 0; r < FONT_HEIGHT; r++)
			touches |= glyph[r] & 1;
		CHECK_EQ(touches, c == '_');
	}
}

UNIT_TEST(font_descenders_only_below_the_baseline_for_gjpqy)
{
	/* Rows 12-14 are below the baseline (see font8x16.c). */
	for (int c = 'a'; c <= 'z'; c++) {
		const u8 *glyph = font8x16_glyph(c);
		bool below = glyph[12] | glyph[13] | glyph[14];

		CHECK_EQ(below, strchr("gjpqy", c) != NULL);
	}
}

/* ---- drawing glyphs ------------------------------------------------------------ */

UNIT_TEST(glyph_32bpp_xrgb)
{
	struct boot_framebuffer fb = rgb_fb(24, 48, 32, 16, 8, 8, 8, 0, 8);
	check_glyph_drawn(&fb, 0x123456, 0x0000ff);
}

UNIT_TEST(glyph_32bpp_xbgr)
{
	struct boot_framebuffer fb = rgb_fb(24, 48, 32, 0, 8, 8, 8, 16, 8);
	check_glyph_drawn(&fb, 0x563412, 0xff0000);
}

UNIT_TEST(glyph_24bpp)
{
	struct boot_framebuffer fb = rgb_fb(24, 48, 24, 16, 8, 8, 8, 0, 8);
	check_glyph_drawn(&fb, 0x123456, 0x0000ff);
}

UNIT_TEST(glyph_16bpp_565)
{
	struct boot_framebuffer fb = rgb_fb(24, 48, 16, 11, 5, 5, 6, 0, 5);
	/* 0x12 >> 3 = 2, 0x34 >> 2 = 0x0d, 0x56 >> 3 = 0x0a */
	check_glyph_drawn(&fb, 2 << 11 | 0x0d << 5 | 0x0a, 0x001f);
}

UNIT_TEST(pixel_value_555_and_10_bit_channels)
{
	struct boot_framebuffer fb555 = rgb_fb(8, 16, 16, 10, 5, 5, 5, 0, 5);
	struct boot_framebuffer fb30 = rgb_fb(8, 16, 32, 20, 10, 10, 10, 0, 10);
	struct boot_framebuffer nonsense = rgb_fb(8, 16, 32, 30, 8, 8, 8, 0, 8);

	CHECK_EQ(fbdraw_pixel(&fb555, 0x123456), 2 << 10 | 6 << 5 | 0x0a);
	CHECK_EQ(fbdraw_pixel(&fb555, 0xffffff), 0x7fff);
	CHECK_EQ(fbdraw_pixel(&fb30, 0xff0000), 0x3fcu << 20);
	CHECK_EQ(fbdraw_pixel(&nonsense, 0xffffff), 0x00ffff);
}

UNIT_TEST(clear_fills_the_visible_area_and_not_the_padding)
{
	struct boot_framebuffer fb = rgb_fb(20, 18, 32, 16, 8, 8, 8, 0, 8);
	u8 *mem = malloc((size_t)fb.pitch * fb.height);
	struct fbdraw d;

	memset(mem, 0xa5, (size_t)fb.pitch * fb.height);
	fbdraw_init(&d, mem, &fb, 0xffffff, 0x102030);
	fbdraw_clear(&d);
	for (u32 y = 0; y < fb.height; y++) {
		CHECK_EQ(pixel_at(&d, 0, y), 0x102030);
		CHECK_EQ(pixel_at(&d, fb.width - 1, y), 0x102030);
		CHECK_EQ(mem[y * fb.pitch + fb.width * 4], 0xa5);
	}
	free(mem);
}

/* ---- the text grid ------------------------------------------------------------- */

UNIT_TEST(grid_wraps_at_the_last_column)
{
	struct textgrid g = grid_of(10, 4);

	feed(&g, "0123456789AB");
	CHECK_STR(line(&g, 0), "0123456789");
	CHECK_STR(line(&g, 1), "AB");
	CHECK_EQ(g.row, 1);
	CHECK_EQ(g.col, 2);
}

UNIT_TEST(grid_full_width_line_then_newline_leaves_no_blank_line)
{
	struct textgrid g = grid_of(10, 4);

	feed(&g, "0123456789\nX");
	CHECK_STR(line(&g, 0), "0123456789");
	CHECK_STR(line(&g, 1), "X");
	CHECK_EQ(g.row, 1);
}

UNIT_TEST(grid_scrolls_when_the_last_line_is_full)
{
	struct textgrid g = grid_of(10, 3);

	feed(&g, "one\ntwo\nthree\nfour");
	CHECK_STR(line(&g, 0), "two");
	CHECK_STR(line(&g, 1), "three");
	CHECK_STR(line(&g, 2), "four");
	feed(&g, "\n");
	CHECK_STR(line(&g, 0), "three");
	CHECK_STR(line(&g, 1), "four");
	CHECK_STR(line(&g, 2), "");
	CHECK_EQ(g.row, 2);
	CHECK_EQ(g.col, 0);
}

UNIT_TEST(grid_wrapping_on_the_last_line_scrolls)
{
	struct textgrid g = grid_of(4, 2);

	feed(&g, "ab\ncdefgh");
	CHECK_STR(line(&g, 0), "cdef");
	CHECK_STR(line(&g, 1), "gh");
}

UNIT_TEST(grid_tab_stops_every_8_columns_and_at_the_last)
{
	struct textgrid g = grid_of(20, 4);

	feed(&g, "ab\tc\td\n\tx\n12345678\ty");
	CHECK_STR(line(&g, 0), "ab      c       d");
	CHECK_STR(line(&g, 1), "        x");
	CHECK_STR(line(&g, 2), "12345678        y");
	g = grid_of(12, 2);
	feed(&g, "abcdefghi\tX");
	CHECK_STR(line(&g, 0), "abcdefghi  X");
	g = grid_of(8, 2);
	feed(&g, "abcdefgh\tz"); /* pending wrap: the tab changes nothing */
	CHECK_STR(line(&g, 0), "abcdefgh");
	CHECK_STR(line(&g, 1), "z");
}

UNIT_TEST(grid_backspace_moves_left_without_erasing)
{
	struct textgrid g = grid_of(10, 3);

	feed(&g, "abc\bX\n\bY\n0123456789\bZ");
	CHECK_STR(line(&g, 0), "abX");
	CHECK_STR(line(&g, 1), "Y");
	CHECK_STR(line(&g, 2), "012345678Z");
	CHECK_EQ(g.row, 2);
	feed(&g, "\b\b \b");
	CHECK_STR(line(&g, 2), "01234567 Z");
	CHECK_EQ(g.col, 8);
}

UNIT_TEST(grid_carriage_return_goes_to_column_0)
{
	struct textgrid g = grid_of(10, 3);

	feed(&g, "hello\rJ");
	CHECK_STR(line(&g, 0), "Jello");
	CHECK_EQ(g.row, 0);
	CHECK_EQ(g.col, 1);
}

UNIT_TEST(grid_skips_escape_sequences)
{
	struct textgrid g = grid_of(20, 4);

	feed(&g,
	     "a\x1b[1;31mb\x1b[0mc\x1b(Bd\x1b[?25le\x1b"
	     "7f");
	CHECK_STR(line(&g, 0), "abcdef");
	/* A sequence split across writes, as a console may be handed it. */
	feed(&g, "\nx\x1b[3");
	feed(&g, "1my");
	CHECK_STR(line(&g, 1), "xy");
	/* A control byte ends a broken sequence and still takes effect. */
	feed(&g, "\x1b[12\nz\x1b\x1b[2Jw");
	CHECK_STR(line(&g, 2), "zw");
}

UNIT_TEST(grid_ignores_controls_and_utf8_continuations)
{
	struct textgrid g = grid_of(10, 2);
	static const char s[] =
		"a\x07"
		"b\x7f"
		"c\x00"
		"d\xc3\xa9!";

	textgrid_write(&g, s, sizeof(s) - 1);
	CHECK_EQ(g.cells[4], 0xc3);
	g.cells[4] = '?';
	CHECK_STR(line(&g, 0), "abcd?!");
}

/* ---- redrawing ------------------------------------------------------------------- */

static int ndraws;

static void
count_draw(void *ctx, unsigned col, unsigned row, u8 ch)
{
	ndraws++;
}

UNIT_TEST(flush_draws_only_changed_cells)
{
	struct textgrid g = grid_of(8, 3);

	feed(&g, "hello");
	ndraws = 0;
	textgrid_flush(&g, count_draw, NULL);
	CHECK_EQ(ndraws, 5);
	feed(&g, "\rhelp"); /* only 'p' replaces 'l' */
	ndraws = 0;
	textgrid_flush(&g, count_draw, NULL);
	CHECK_EQ(ndraws, 1);
	feed(&g, "\nsame\nsame");
	ndraws = 0;
	textgrid_flush(&g, count_draw, NULL);
	CHECK_EQ(ndraws, 8);
	/* Scrolling: "helpo" becomes "same " (5 cells), the second "same"
	 * lands on the first (none), the last row goes blank (4). */
	feed(&g, "\n");
	ndraws = 0;
	textgrid_flush(&g, count_draw, NULL);
	CHECK_EQ(ndraws, 5 + 0 + 4);
	ndraws = 0;
	textgrid_flush(&g, count_draw, NULL);
	CHECK_EQ(ndraws, 0);
}

static void
draw_into(void *ctx, unsigned col, unsigned row, u8 ch)
{
	fbdraw_glyph(ctx, col * FONT_WIDTH, row * FONT_HEIGHT, font8x16_glyph(ch));
}

UNIT_TEST(screen_after_many_scrolls_equals_a_fresh_render)
{
	struct boot_framebuffer fb =
		rgb_fb(9 * FONT_WIDTH + 3, 4 * FONT_HEIGHT + 5, 16, 11, 5, 5, 6, 0, 5);
	size_t size = (size_t)fb.pitch * fb.height;
	u8 *screen = malloc(size), *fresh = malloc(size);
	struct fbdraw live, ref;
	struct textgrid g = grid_of(9, 4);
	char text[64];

	fbdraw_init(&live, screen, &fb, 0xc0c0c0, 0);
	fbdraw_clear(&live);
	for (int i = 0; i < 40; i++) {
		snprintf(text, sizeof(text), "[%d]%.*s\t.\n", i * 37, i % 11, "abcdefghijk");
		feed(&g, text);
		textgrid_flush(&g, draw_into, &live);
	}
	fbdraw_init(&ref, fresh, &fb, 0xc0c0c0, 0);
	fbdraw_clear(&ref);
	for (unsigned row = 0; row < g.rows; row++)
		for (unsigned col = 0; col < g.cols; col++)
			draw_into(&ref, col, row, g.cells[row * g.cols + col]);
	CHECK(memcmp(screen, fresh, size) == 0);
	free(screen);
	free(fresh);
}

/* ---- fbcon.c's glue ------------------------------------------------------------- */

static struct boot_info boot;

UNIT_TEST(fbcon_registers_on_an_rgb_framebuffer)
{
	memset(&boot, 0, sizeof(boot));
	boot.has_framebuffer = true;
	boot.efi = true;
	boot.fb = rgb_fb(643, 481, 32, 16, 8, 8, 8, 0, 8);
	registered = NULL;
	fbcon_init(&boot);
	CHECK(registered != NULL);
	CHECK_EQ(mapped_cache, IOMAP_WRITE_COMBINING);
	CHECK_EQ(mapped_size, (size_t)boot.fb.pitch * 481);
	CHECK_STR(unit_last_log,
		  "fbcon: 643x481x32 framebuffer at 0xfd000000, 80x30 text, font 8x16 x1\n");
	CHECK_EQ(pixel_at(&pixels, 642, 480), 0); /* cleared, margins included */
	registered->write("\x1b[1mHi\n", 7);
	CHECK(cell_matches(&pixels, 0, 0, 'H'));
	CHECK(cell_matches(&pixels, FONT_WIDTH, 0, 'i'));
	CHECK_EQ(grid.row, 1);
}

/* Laptop panels: the font grows with the screen and the grid stays at least 80x30. */
UNIT_TEST(font_scale_follows_the_screen_size)
{
	CHECK_EQ(fbdraw_choose_scale(640, 480, FBDRAW_MIN_ROWS), 1);
	CHECK_EQ(fbdraw_choose_scale(1024, 768, FBDRAW_MIN_ROWS), 1);
	CHECK_EQ(fbdraw_choose_scale(1366, 768, FBDRAW_MIN_ROWS), 1);
	CHECK_EQ(fbdraw_choose_scale(1920, 1080, FBDRAW_MIN_ROWS), 2);
	CHECK_EQ(fbdraw_choose_scale(2560, 1440, FBDRAW_MIN_ROWS), 3);
	CHECK_EQ(fbdraw_choose_scale(2880, 1800, FBDRAW_MIN_ROWS), 3);
	CHECK_EQ(fbdraw_choose_scale(3840, 2160, FBDRAW_MIN_ROWS), 4);
	CHECK_EQ(fbdraw_choose_scale(7680, 4320, FBDRAW_MIN_ROWS), FBDRAW_MAX_SCALE);
	/* Too small for 80x30 at any scale, or degenerate: unscaled. */
	CHECK_EQ(fbdraw_choose_scale(320, 200, FBDRAW_MIN_ROWS), 1);
	CHECK_EQ(fbdraw_choose_scale(0, 0, FBDRAW_MIN_ROWS), 1);
	/* A portrait screen is limited by its width. */
	CHECK_EQ(fbdraw_choose_scale(1080, 1920, FBDRAW_MIN_ROWS), 1);
	for (u32 w = 640; w <= 7680; w += 97) {
		for (u32 h = 480; h <= 4320; h += 89) {
			unsigned s = fbdraw_choose_scale(w, h, FBDRAW_MIN_ROWS);
			bool fits = w / (FONT_WIDTH * s) >= FBDRAW_MIN_COLS &&
				    h / (FONT_HEIGHT * s) >= FBDRAW_MIN_ROWS;
			bool next_fits = w / (FONT_WIDTH * (s + 1)) >= FBDRAW_MIN_COLS &&
					 h / (FONT_HEIGHT * (s + 1)) >= FBDRAW_MIN_ROWS;
			CHECK(s == 1 || fits);
			CHECK(s == FBDRAW_MAX_SCALE || !next_fits);
		}
	}
}

/*
 * A long table (the experiment report of `all`: about 46 rows with the
 * shell's lines after it) on common laptop panels: asking for its rows
 * gives a scale that shows them all, the largest such, wherever even
 * scale 1 has them; and 100 columns, the table's width.
 */
UNIT_TEST(font_scale_leaves_the_rows_asked_for)
{
	static const struct {
		u32 width, height;
		unsigned rows_at_scale_1;
	} panels[] = { { 1920, 1080, 67 }, { 1366, 768, 48 }, { 3840, 2160, 135 } };

	for (unsigned i = 0; i < ARRAY_SIZE(panels); i++) {
		u32 w = panels[i].width, h = panels[i].height;
		for (unsigned needed = FBDRAW_MIN_ROWS; needed <= 70; needed++) {
			unsigned s = fbdraw_choose_scale(w, h, needed);
			CHECK_EQ(h / (FONT_HEIGHT * s) >= needed,
				 needed <= panels[i].rows_at_scale_1);
			CHECK(w / (FONT_WIDTH * s) >= 100);
			CHECK(s == FBDRAW_MAX_SCALE || h / (FONT_HEIGHT * (s + 1)) < needed ||
			      w / (FONT_WIDTH * (s + 1)) < FBDRAW_MIN_COLS);
		}
	}
	CHECK_EQ(fbdraw_choose_scale(1920, 1080, 46), 1);
	CHECK_EQ(fbdraw_choose_scale(1366, 768, 46), 1);
	CHECK_EQ(fbdraw_choose_scale(3840, 2160, 46), 2); /* 67 rows; x3 would give 45 */
	CHECK_EQ(fbdraw_choose_scale(3840, 2160, 45), 3);
}

/* A resize keeps the text up to the cursor, as much as fits, at the top. */
UNIT_TEST(grid_resize_keeps_the_last_lines)
{
	u8 cells[16 * 6], shown[16 * 6];
	struct textgrid g;

	textgrid_init(&g, cells, shown, 8, 4);
	feed(&g, "one\ntwo\nthree\nfour");
	textgrid_resize(&g, 16, 6); /* more room: every line stays */
	CHECK_STR(line(&g, 0), "one");
	CHECK_STR(line(&g, 3), "four");
	CHECK_EQ(g.row, 3);
	CHECK_EQ(g.col, 4);
	CHECK_EQ(g.dirty_lo, 0);
	CHECK_EQ(g.dirty_hi, 6);
	CHECK(memchr(g.shown, 'o', 16 * 6) == NULL); /* the screen was blanked: all to draw */
	feed(&g, "!\nfive");
	CHECK_STR(line(&g, 3), "four!");
	CHECK_STR(line(&g, 4), "five");
	textgrid_resize(&g, 3, 2); /* less: the last two lines, cut */
	CHECK_STR(line(&g, 0), "fou");
	CHECK_STR(line(&g, 1), "fiv");
	CHECK_EQ(g.row, 1);
	CHECK_EQ(g.col, 3);
}

/* Asking for more rows than the screen has at its scale lays it out again on the next write. */
UNIT_TEST(fbcon_rows_knob_scales_the_font_down)
{
	memset(&boot, 0, sizeof(boot));
	boot.has_framebuffer = true;
	boot.efi = true;
	boot.fb = rgb_fb(3840, 2160, 32, 16, 8, 8, 8, 0, 8);
	fbcon_rows = FBDRAW_MIN_ROWS;
	pending_scale = 0;
	fbcon_init(&boot);
	registered->write("report\n", 7);
	CHECK_EQ(grid.rows, 33);
	fbcon_rows = 46;
	fbcon_rows_changed();
	CHECK_STR(unit_last_log, "fbcon: at least 46 rows asked: 240x67 text, font 8x16 x2\n");
	CHECK_EQ(grid.rows, 33); /* not before the next write, which holds printk's lock */
	registered->write("table\n", 6);
	CHECK_EQ(pixels.scale, 2);
	CHECK_EQ(grid.rows, 67);
	CHECK_EQ(grid.cols, 240);
	CHECK_STR(line(&grid, 0), "report");
	CHECK_STR(line(&grid, 1), "table");
	const u8 *t = font8x16_glyph('t');
	int wrong = 0;
	for (u32 y = 0; y < FONT_HEIGHT * 2; y++) /* 't' begins row 1: a 16x32 block at (0, 32) */
		for (u32 x = 0; x < FONT_WIDTH * 2; x++)
			wrong += pixel_at(&pixels, x, FONT_HEIGHT * 2 + y) !=
				 (t[y / 2] & (0x80 >> (x / 2)) ? pixels.fg : pixels.bg);
	CHECK_EQ(wrong, 0);
	fbcon_rows = FBDRAW_MIN_ROWS;
	pending_scale = 0;
}

/* A glyph drawn at scale 3 is the unscaled glyph with every pixel a 3x3 block. */
UNIT_TEST(scaled_glyph_is_the_font_in_blocks)
{
	struct boot_framebuffer fb =
		rgb_fb(4 * FONT_WIDTH * 3, 2 * FONT_HEIGHT * 3, 32, 16, 8, 8, 8, 0, 8);
	size_t size = (size_t)fb.pitch * fb.height;
	u8 *mem = malloc(size);
	const u8 *glyph = font8x16_glyph('R');
	struct fbdraw d;
	int wrong = 0, outside = 0;

	memset(mem, 0xa5, size);
	fbdraw_init(&d, mem, &fb, 0xffffff, 0);
	d.scale = 3;
	fbdraw_glyph(&d, FONT_WIDTH * 3, FONT_HEIGHT * 3, glyph);
	for (u32 y = 0; y < fb.height; y++) {
		for (u32 x = 0; x < fb.width; x++) {
			bool in = x >= FONT_WIDTH * 3 && x < 2 * FONT_WIDTH * 3 &&
				  y >= FONT_HEIGHT * 3 && y < 2 * FONT_HEIGHT * 3;
			u32 v = pixel_at(&d, x, y);
			if (!in) {
				outside += v != 0xa5a5a5a5;
				continue;
			}
			u32 fx = (x - FONT_WIDTH * 3) / 3, fy = (y - FONT_HEIGHT * 3) / 3;
			wrong += v != (glyph[fy] & (0x80 >> fx) ? d.fg : d.bg);
		}
	}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(outside, 0);
	free(mem);
}

UNIT_TEST(fbcon_scales_the_font_on_a_4k_screen)
{
	memset(&boot, 0, sizeof(boot));
	boot.has_framebuffer = true;
	boot.efi = true;
	boot.fb = rgb_fb(3840, 2160, 32, 16, 8, 8, 8, 0, 8);
	registered = NULL;
	fbcon_init(&boot);
	CHECK(registered != NULL);
	CHECK_STR(unit_last_log,
		  "fbcon: 3840x2160x32 framebuffer at 0xfd000000, 120x33 text, font 8x16 x4\n");
	registered->write("\nok", 3);
	CHECK(pixel_at(&pixels, 0, 0) == pixels.bg);
	/* 'o' is the first cell of row 1: a 32x64 block at (0, 64). */
	const u8 *o = font8x16_glyph('o');
	int wrong = 0;
	for (u32 y = 0; y < FONT_HEIGHT * 4; y++)
		for (u32 x = 0; x < FONT_WIDTH * 4; x++)
			wrong += pixel_at(&pixels, x, FONT_HEIGHT * 4 + y) !=
				 (o[y / 4] & (0x80 >> (x / 4)) ? pixels.fg : pixels.bg);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(grid.row, 1);
	CHECK_EQ(grid.col, 2);
}

UNIT_TEST(fbcon_off_leaves_a_usable_screen_alone)
{
	memset(&boot, 0, sizeof(boot));
	boot.has_framebuffer = true;
	boot.fb = rgb_fb(643, 481, 32, 16, 8, 8, 8, 0, 8);
	registered = NULL;
	mapped_size = 0;
	fbcon_enabled = 0;
	fbcon_init(&boot);
	fbcon_enabled = 1;
	CHECK(registered == NULL);
	CHECK_EQ(mapped_size, 0); /* the screen not even mapped */
	CHECK_STR(unit_last_log, "fbcon: off (fbcon=0): the serial port is the only console\n");
}

UNIT_TEST(fbcon_leaves_unusable_screens_alone)
{
	int logs = unit_log_count;

	memset(&boot, 0, sizeof(boot));
	boot.efi = true; /* UEFI: no VGA text mode to fall back on */
	registered = NULL;
	fbcon_init(&boot);
	CHECK(registered == NULL);
	CHECK_EQ(unit_log_count, logs);

	boot.has_framebuffer = true;
	boot.fb = rgb_fb(640, 480, 8, 0, 0, 0, 0, 0, 0);
	boot.fb.type = FB_TYPE_INDEXED;
	fbcon_init(&boot);
	CHECK(registered == NULL);
	CHECK_STR(unit_last_log, "fbcon: framebuffer type 0 not supported\n");

	boot.fb = rgb_fb(7, 480, 32, 16, 8, 8, 8, 0, 8); /* narrower than a glyph */
	fbcon_init(&boot);
	CHECK(registered == NULL);
}

UNIT_TEST(fbcon_vga_cells_use_grey_on_black_and_cp437_for_the_rest)
{
	u16 mem[2 * 80];
	struct vgatext v = { .base = mem, .stride = 80 };

	draw_vga_cell(&v, 3, 1, 'A');
	draw_vga_cell(&v, 4, 1, 0xc3);
	CHECK_EQ(mem[80 + 3], 0x0741);
	CHECK_EQ(mem[80 + 4], 0x07fe);
}
