/*
 * fbcon.c - the screen console; see fbcon.h. Only the glue lives here:
 * choosing the screen, mapping it, and registering the console. The text
 * logic is in textgrid.c, the pixel drawing in fbdraw.c, the font in
 * font8x16.c, all hardware-free and unit-tested on the host.
 *
 * Redrawing from a shadow of the character cells, not from an in-RAM
 * pixel back buffer: the shadow is two bytes per cell (the text, and the
 * text as drawn) where a back buffer would be the size of the screen
 * (almost 8 MiB at 1920x1080x32), which would have to exist before any
 * allocator does; and comparing the two copies after a scroll redraws
 * only the cells that changed, never reading video memory back. The same
 * scheme drives VGA text mode, one 16-bit store per changed cell.
 *
 * The font scale follows the screen (fbdraw_choose_scale) and the
 * fbcon_rows knob: a program about to show a long table (the experiment
 * report of the USB stick) asks for the rows it needs, and the screen is
 * laid out again at the largest scale that gives them, the text up to the
 * cursor kept at the top. That happens in the next write, under printk's
 * lock like every other change of the grid.
 *
 * No cursor is shown: nothing reads from this console yet.
 *
 * fbcon=0 leaves the screen alone and the serial port the only console.
 * Headless boots (tools/qemu-run --headless: the tests, tools/reproduce,
 * tools/rewind-run) set it: under TCG drawing each glyph's pixels costs
 * guest CPU that nobody sees, and a profile would count it as kernel time
 * (docs/regressions/rwsem.md, "The headless boot").
 */
#include "drivers/fbcon.h"
#include "drivers/fbdraw.h"
#include "drivers/font8x16.h"
#include "drivers/textgrid.h"
#include "kernel/knobs.h"
#include "kernel/printk.h"
#include "kernel/x86/x86.h"
#include "mm/vmap.h"

/* Light grey on black, as VGA text mode shows by default. */
#define FG_RGB 0xc0c0c0
#define BG_RGB 0x000000

/* Room for 3840x2160 in unscaled 8x16 cells; a larger grid uses its top left. */
#define MAX_COLS 480
#define MAX_ROWS 135

#define VGA_TEXT_PHYS	  0xb8000
#define VGA_COLS	  80
#define VGA_ROWS	  25
#define VGA_ATTR	  0x07 /* light grey on black */
#define VGA_REPLACEMENT	  0xfe /* a small square in code page 437 */
#define VGA_CRTC_INDEX	  0x3d4
#define VGA_CRTC_DATA	  0x3d5
#define CRTC_CURSOR_START 0x0a
#define CURSOR_DISABLE	  0x20

struct vgatext {
	volatile u16 *base;
	unsigned stride; /* cells from one row to the next */
};

static u8 cells[MAX_COLS * MAX_ROWS];
static u8 shown[MAX_COLS * MAX_ROWS];
static struct textgrid grid;
static struct fbdraw pixels;
static struct vgatext vga;
static textgrid_draw_fn draw_cell;
static void *draw_ctx;
static unsigned pending_scale; /* 0, or the scale the next write lays the screen out at */

KNOB_BOOL(fbcon_enabled, "fbcon", 1, false,
	  "0: no screen console, the serial port only (headless boots: tools/qemu-run --headless)");

static void fbcon_rows_changed(void);
KNOB_INT_NOTIFY(fbcon_rows, "fbcon_rows", FBDRAW_MIN_ROWS, 1, MAX_ROWS, true, fbcon_rows_changed,
		"the fewest text rows the screen console keeps: its font is scaled up only as far "
		"as leaves them and 80 columns");

/* The text grid of the framebuffer at a font scale. */
static void
grid_shape(unsigned scale, unsigned *cols, unsigned *rows)
{
	*cols = MIN(pixels.width / (FONT_WIDTH * scale), MAX_COLS);
	*rows = MIN(pixels.height / (FONT_HEIGHT * scale), MAX_ROWS);
}

/* Runs in knob_set's caller, not under printk's lock: the next write lays out. */
static void
fbcon_rows_changed(void)
{
	unsigned scale, cols, rows;

	if (!pixels.base)
		return; /* the command line, before fbcon_init reads the knob; or VGA text */
	scale = fbdraw_choose_scale(pixels.width, pixels.height, READ_ONCE(fbcon_rows));
	grid_shape(scale, &cols, &rows);
	pr_info("fbcon: at least %d rows asked: %ux%u text, font 8x16 x%u\n", READ_ONCE(fbcon_rows),
		cols, rows, scale);
	WRITE_ONCE(pending_scale, scale);
}

static void
relayout(unsigned scale)
{
	unsigned cols, rows;

	pixels.scale = scale;
	grid_shape(scale, &cols, &rows);
	fbdraw_clear(&pixels);
	textgrid_resize(&grid, cols, rows);
}

static void
draw_glyph(void *ctx, unsigned col, unsigned row, u8 ch)
{
	const struct fbdraw *d = ctx;

	fbdraw_glyph(d, col * FONT_WIDTH * d->scale, row * FONT_HEIGHT * d->scale,
		     font8x16_glyph(ch));
}

static void
draw_vga_cell(void *ctx, unsigned col, unsigned row, u8 ch)
{
	struct vgatext *v = ctx;
	u8 c = ch >= 0x20 && ch <= 0x7e ? ch : VGA_REPLACEMENT;

	v->base[(size_t)row * v->stride + col] = VGA_ATTR << 8 | c;
}

static void
fbcon_write(const char *s, size_t n)
{
	unsigned scale = READ_ONCE(pending_scale);

	if (scale && scale != pixels.scale)
		relayout(scale);
	textgrid_write(&grid, s, n);
	textgrid_flush(&grid, draw_cell, draw_ctx);
	/* Drain the write-combining buffers: the last line printed before
	 * a hang or a reset must reach the screen. */
	__asm__ __volatile__("sfence" ::: "memory");
}

static struct console fbcon_console = { .name = "fbcon", .write = fbcon_write };

static void
start(unsigned cols, unsigned rows, textgrid_draw_fn draw, void *ctx)
{
	textgrid_init(&grid, cells, shown, MIN(cols, MAX_COLS), MIN(rows, MAX_ROWS));
	draw_cell = draw;
	draw_ctx = ctx;
	register_console(&fbcon_console);
}

static void
init_pixels(const struct boot_framebuffer *fb)
{
	unsigned cols, rows;

	if (fb->width < FONT_WIDTH || fb->height < FONT_HEIGHT)
		return;
	void *base = ioremap(fb->addr, (size_t)fb->pitch * fb->height, IOMAP_WRITE_COMBINING);
	if (!base) {
		pr_err("fbcon: cannot map the framebuffer at 0x%lx\n", (unsigned long)fb->addr);
		return;
	}
	fbdraw_init(&pixels, base, fb, FG_RGB, BG_RGB);
	pixels.scale = fbdraw_choose_scale(fb->width, fb->height, READ_ONCE(fbcon_rows));
	fbdraw_clear(&pixels);
	grid_shape(pixels.scale, &cols, &rows);
	start(cols, rows, draw_glyph, &pixels);
	pr_info("fbcon: %ux%ux%u framebuffer at 0x%lx, %ux%u text, font 8x16 x%u\n", fb->width,
		fb->height, fb->bpp, (unsigned long)fb->addr, grid.cols, grid.rows, pixels.scale);
}

/* tag: the loader's EGA text framebuffer tag (sizes in characters), or NULL. */
static void
init_vga(const struct boot_framebuffer *tag)
{
	phys_addr_t phys = tag ? tag->addr : VGA_TEXT_PHYS;
	unsigned cols = tag ? tag->width : VGA_COLS;
	unsigned rows = tag ? tag->height : VGA_ROWS;
	unsigned pitch = tag ? tag->pitch : VGA_COLS * 2;

	cols = MIN(cols, pitch / 2);
	if (cols == 0)
		return;
	vga.base = ioremap(phys, (size_t)pitch * rows, IOMAP_UNCACHED);
	if (!vga.base) {
		pr_err("fbcon: cannot map VGA text memory at 0x%lx\n", (unsigned long)phys);
		return;
	}
	vga.stride = pitch / 2;
	for (unsigned row = 0; row < rows; row++)
		for (unsigned col = 0; col < cols; col++)
			draw_vga_cell(&vga, col, row, ' ');
	outb(VGA_CRTC_INDEX, CRTC_CURSOR_START);
	outb(VGA_CRTC_DATA, CURSOR_DISABLE);
	start(cols, rows, draw_vga_cell, &vga);
	pr_info("fbcon: VGA text %ux%u\n", grid.cols, grid.rows);
}

void
fbcon_init(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;

	if (!READ_ONCE(fbcon_enabled)) {
		pr_info("fbcon: off (fbcon=0): the serial port is the only console\n");
		return;
	}
	if (bi->has_framebuffer && fb->type == FB_TYPE_RGB)
		init_pixels(fb);
	else if (bi->has_framebuffer && fb->type == FB_TYPE_EGA_TEXT && !bi->efi)
		init_vga(fb);
	else if (!bi->has_framebuffer && !bi->efi)
		init_vga(NULL);
	else if (bi->has_framebuffer)
		pr_info("fbcon: framebuffer type %u not supported\n", fb->type);
}
