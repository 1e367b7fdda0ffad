/*
 * textgrid.h - the screen console's text, kept in RAM: a grid of character
 * cells and a cursor, fed the console's byte stream, plus a copy of what
 * the screen shows so that only changed cells get redrawn.
 *
 * The stream understands '\n' (which also returns the carriage, as printk
 * lines end in a bare '\n'), '\r', '\t' (stops every 8 columns), '\b'
 * (moves left, does not erase), line wrap and scrolling. ANSI escape
 * sequences are skipped, not interpreted. Other control bytes and UTF-8
 * continuation bytes are ignored (a multi-byte character takes one cell);
 * any other byte is stored as is and left to the drawing code to show.
 *
 * Hardware-free: drawing goes through a callback, so the same code drives
 * a pixel framebuffer, VGA text memory or a host unit test. Not locked:
 * the caller serialises (printk writes consoles under its lock).
 */
#ifndef REWIND_TEXTGRID_H
#define REWIND_TEXTGRID_H

#include "kernel/lib/types.h"

#define TEXTGRID_TAB 8

struct textgrid {
	u8 *cells; /* rows * cols, row-major: the text as it should look */
	u8 *shown; /* the same layout: the text as last drawn */
	unsigned cols, rows;
	unsigned col, row; /* cursor; col == cols: wrap before the next character */
	unsigned dirty_lo; /* rows [dirty_lo, dirty_hi) may differ from shown */
	unsigned dirty_hi;
	u8 esc; /* where we are in an escape sequence */
};

/* Draws character ch (any byte) into the cell at (col, row). */
typedef void (*textgrid_draw_fn)(void *ctx, unsigned col, unsigned row, u8 ch);

/*
 * cells and shown hold cols * rows bytes each (cols, rows >= 1). The grid
 * starts blank with the cursor at the top left, and assumes the caller has
 * blanked the screen to match.
 */
void textgrid_init(struct textgrid *g, u8 *cells, u8 *shown, unsigned cols, unsigned rows);
void textgrid_write(struct textgrid *g, const char *s, size_t n);
/* Calls draw for every cell that differs from what was last drawn. */
void textgrid_flush(struct textgrid *g, textgrid_draw_fn draw, void *ctx);
/*
 * A new shape, cols x rows, in the same two arrays (which must hold it):
 * the lines up to the cursor's are kept, as many as fit, at the top, cut
 * to the new width, and the cursor stays on the last of them. Like init,
 * it assumes the caller has blanked the screen: the next flush draws the
 * kept text.
 */
void textgrid_resize(struct textgrid *g, unsigned cols, unsigned rows);

#endif
