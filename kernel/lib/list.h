/*
 * list.h - intrusive circular doubly linked lists.
 *
 * A list_head is embedded in the object it links; the empty list points at
 * itself, so insertion and removal never test for NULL.
 */
#ifndef REWIND_LIST_H
#define REWIND_LIST_H

#include "kernel/lib/types.h"

struct list_head {
	struct list_head *next, *prev;
};

/* clang-format off */
#define LIST_HEAD_INIT(name) { &(name), &(name) }
/* clang-format on */

static inline void
list_init(struct list_head *head)
{
	head->next = head;
	head->prev = head;
}

static inline bool
list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline void
list_insert_between(struct list_head *node, struct list_head *prev, struct list_head *next)
{
	next->prev = node;
	node->next = next;
	node->prev = prev;
	prev->next = node;
}

static inline void
list_add(struct list_head *node, struct list_head *head)
{
	list_insert_between(node, head, head->next);
}

static inline void
list_add_tail(struct list_head *node, struct list_head *head)
{
	list_insert_between(node, head->prev, head);
}

static inline void
list_del(struct list_head *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->next = node->prev = node;
}

#define list_entry(ptr, type, member)	     container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_for_each(pos, head)	     for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#endif
