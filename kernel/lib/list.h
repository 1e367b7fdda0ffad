/*
 * list.h - intrusive circular doubly linked lists.
 *
 * A list_head is embedded in the object it links; the empty list points at
 * itself, so insertion and removal never test for NULL. An hlist is the
 * one-pointer variant for heads that must stay small (an inode's mappings):
 * NULL-terminated, added at the head, removed in O(1) through pprev.
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

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

static inline void
hlist_add_head(struct hlist_node *node, struct hlist_head *head)
{
	node->next = head->first;
	if (node->next)
		node->next->pprev = &node->next;
	head->first = node;
	node->pprev = &head->first;
}

static inline void
hlist_del(struct hlist_node *node)
{
	*node->pprev = node->next;
	if (node->next)
		node->next->pprev = node->pprev;
	node->next = NULL;
	node->pprev = NULL;
}

#define hlist_for_each(pos, head) for ((pos) = (head)->first; (pos); (pos) = (pos)->next)

#endif
