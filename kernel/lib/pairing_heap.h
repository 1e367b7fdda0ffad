/*
 * pairing_heap.h - an intrusive min-heap with O(1) insertion and O(log n)
 * amortized removal of the minimum or of any node (Fredman, Sedgewick,
 * Sleator and Tarjan's pairing heap). For sets that are mostly asked "what
 * comes first?" under a spinlock with interrupts off, where a sorted list
 * would cost O(n) per insertion: kernel/time/timer.c's pending timers.
 * No allocation, no recursion; the caller locks.
 */
#ifndef REWIND_PAIRING_HEAP_H
#define REWIND_PAIRING_HEAP_H

#include "kernel/lib/types.h"

struct pheap_node {
	struct pheap_node *child; /* the first of its children */
	struct pheap_node *next;  /* the next sibling */
	struct pheap_node *prev;  /* the previous sibling, or the parent of a first child */
};

struct pheap {
	struct pheap_node *root; /* the minimum; NULL when empty */
	/* Whether a comes strictly before b. */
	bool (*before)(const struct pheap_node *a, const struct pheap_node *b);
};

static inline struct pheap_node *
pheap_min(const struct pheap *h)
{
	return h->root;
}

/* Adds n, which must not be in a heap. */
void pheap_insert(struct pheap *h, struct pheap_node *n);
/* Takes n, which must be in h, out of h. */
void pheap_remove(struct pheap *h, struct pheap_node *n);

#endif
