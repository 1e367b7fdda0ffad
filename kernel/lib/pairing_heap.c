/*
 * pairing_heap.c - see pairing_heap.h.
 *
 * Invariants: the root has no siblings and prev NULL; every node comes no
 * earlier than its parent (heap order); a node's children form a list by
 * next, whose first element's prev is the parent and every other's prev
 * its left sibling. Insertion melds the node with the root (one
 * comparison). Removal unlinks the node from its sibling list, melds its
 * children in two passes (pairs left to right, then the pairs right to
 * left - the pass that gives the O(log n) amortized bound) and melds the
 * result with the root.
 */
#include "kernel/lib/pairing_heap.h"

/* Melds two detached heaps (either may be NULL): the later root becomes the earlier's first child. */
static struct pheap_node *
meld(const struct pheap *h, struct pheap_node *a, struct pheap_node *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (h->before(b, a)) {
		struct pheap_node *t = a;
		a = b;
		b = t;
	}
	b->prev = a;
	b->next = a->child;
	if (a->child)
		a->child->prev = b;
	a->child = b;
	return a;
}

/* One heap of the sibling list starting at first, by the two-pass pairing. */
static struct pheap_node *
merge_pairs(const struct pheap *h, struct pheap_node *first)
{
	struct pheap_node *pairs = NULL; /* melded pairs, the last first, linked by next */

	while (first) {
		struct pheap_node *a = first, *b = first->next;
		first = b ? b->next : NULL;
		a->next = a->prev = NULL;
		if (b)
			b->next = b->prev = NULL;
		struct pheap_node *m = meld(h, a, b);
		m->next = pairs;
		pairs = m;
	}
	struct pheap_node *root = NULL;
	while (pairs) {
		struct pheap_node *m = pairs;
		pairs = m->next;
		m->next = NULL;
		root = meld(h, root, m);
	}
	return root;
}

void
pheap_insert(struct pheap *h, struct pheap_node *n)
{
	n->child = n->next = n->prev = NULL;
	h->root = meld(h, h->root, n);
}

void
pheap_remove(struct pheap *h, struct pheap_node *n)
{
	struct pheap_node *children = merge_pairs(h, n->child);

	if (n == h->root) {
		h->root = children;
	} else {
		if (n->prev->child == n)
			n->prev->child = n->next;
		else
			n->prev->next = n->next;
		if (n->next)
			n->next->prev = n->prev;
		h->root = meld(h, h->root, children);
	}
	n->child = n->next = n->prev = NULL;
}
