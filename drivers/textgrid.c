/*
 * textgrid.c - the console's character cells, cursor and redraw tracking;
 * see textgrid.h.
 *
 * Scrolling moves the cells in RAM and marks every row dirty; the flush
 * then redraws only the cells whose character changed. Log lines are
 * mostly shorter than the screen and share their blank tails, so this
 * touches far fewer pixels than redrawing the screen, and it never reads
 * video memory. Several scrolls within one write cost one flush.
 */
#include "drivers/textgrid.h"
#include "kernel/lib/string.h"

#define BLANK ' '
#define ESC   0x1b

enum { ESC_NONE, ESC_SEEN, ESC_CSI };

static void
mark_dirty(struct textgrid *g, unsigned lo, unsigned hi)
{
	g->dirty_lo = MIN(g->dirty_lo, lo);
	g->dirty_hi = MAX(g->dirty_hi, hi);
}

void
textgrid_init(struct textgrid *g, u8 *cells, u8 *shown, unsigned cols, unsigned rows)
{
	size_t n = (size_t)cols * rows;

	memset(cells, BLANK, n);
	memset(shown, BLANK, n);
	*g = (struct textgrid){
		.cells = cells,
		.shown = shown,
		.cols = cols,
		.rows = rows,
		.dirty_lo = rows,
		.dirty_hi = 0,
		.esc = ESC_NONE,
	};
}

void
textgrid_resize(struct textgrid *g, unsigned cols, unsigned rows)
{
	unsigned keep = MIN(g->row + 1, rows), first = g->row + 1 - keep;
	unsigned width = MIN(g->cols, cols);

	/* shown is about to be all blank (the cleared screen): the scratch space. */
	memcpy(g->shown, g->cells + (size_t)first * g->cols, (size_t)keep * g->cols);
	memset(g->cells, BLANK, (size_t)cols * rows);
	for (unsigned r = 0; r < keep; r++)
		memcpy(g->cells + (size_t)r * cols, g->shown + (size_t)r * g->cols, width);
	memset(g->shown, BLANK, (size_t)cols * rows);
	g->cols = cols;
	g->rows = rows;
	g->row = keep - 1;
	g->col = MIN(g->col, cols);
	g->dirty_lo = 0;
	g->dirty_hi = rows;
}

static void
scroll_up(struct textgrid *g)
{
	size_t line = g->cols;

	memmove(g->cells, g->cells + line, (g->rows - 1) * line);
	memset(g->cells + (g->rows - 1) * line, BLANK, line);
	mark_dirty(g, 0, g->rows);
}

static void
newline(struct textgrid *g)
{
	g->col = 0;
	if (g->row + 1 < g->rows)
		g->row++;
	else
		scroll_up(g);
}

static void
put_char(struct textgrid *g, u8 c)
{
	/* Wrapping only now, not right after the last column was filled,
	 * keeps a line exactly as wide as the screen from leaving a blank
	 * line behind when its '\n' follows. */
	if (g->col == g->cols)
		newline(g);
	g->cells[(size_t)g->row * g->cols + g->col] = c;
	mark_dirty(g, g->row, g->row + 1);
	g->col++;
}

static void
tab(struct textgrid *g)
{
	unsigned stop = (g->col / TEXTGRID_TAB + 1) * TEXTGRID_TAB;

	/* The last column is the last stop; a pending wrap stays pending. */
	g->col = MAX(g->col, MIN(stop, g->cols - 1));
}

/*
 * Returns whether c belongs to the escape sequence in progress. Skips
 * ESC [ parameters/intermediates (0x20-0x3f) final (0x40-0x7e), and
 * ESC intermediates (0x20-0x2f) final (0x30-0x7e) such as ESC ( B. Any
 * other byte ends the sequence and is then handled as usual, so a stray
 * ESC cannot swallow the text after it.
 */
static bool
in_escape(struct textgrid *g, u8 c)
{
	if (g->esc == ESC_SEEN) {
		if (c == '[') {
			g->esc = ESC_CSI;
			return true;
		}
		if (c >= 0x20 && c <= 0x2f)
			return true;
		g->esc = ESC_NONE;
		return c >= 0x30 && c <= 0x7e;
	}
	if (c >= 0x20 && c <= 0x3f)
		return true;
	g->esc = ESC_NONE;
	return c >= 0x40 && c <= 0x7e;
}

static void
put_byte(struct textgrid *g, u8 c)
{
	if (g->esc != ESC_NONE && in_escape(g, c))
		return;
	switch (c) {
	case '\n':
		newline(g);
		break;
	case '\r':
		g->col = 0;
		break;
	case '\t':
		tab(g);
		break;
	case '\b':
		if (g->col > 0)
			g->col--;
		break;
	case ESC:
		g->esc = ESC_SEEN;
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			break; /* other control characters show nothing */
		if (c >= 0x80 && c <= 0xbf)
			break; /* UTF-8 continuation: one cell per character */
		put_char(g, c);
		break;
	}
}

void
textgrid_write(struct textgrid *g, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_byte(g, (u8)s[i]);
}

void
textgrid_flush(struct textgrid *g, textgrid_draw_fn draw, void *ctx)
{
	for (unsigned row = g->dirty_lo; row < g->dirty_hi; row++) {
		for (unsigned col = 0; col < g->cols; col++) {
			size_t i = (size_t)row * g->cols + col;

			if (g->cells[i] != g->shown[i]) {
				draw(ctx, col, row, g->cells[i]);
				g->shown[i] = g->cells[i];
			}
		}
	}
	g->dirty_lo = g->rows;
	g->dirty_hi = 0;
}
