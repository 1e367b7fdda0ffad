/*
 * rtc.h - the CMOS real-time clock (MC146818 and its descendants): the
 * date and time at boot, for CLOCK_REALTIME.
 *
 * The decoding (BCD or binary, 12- or 24-hour, the century) and the
 * calendar arithmetic are separate from the port I/O so that the host unit
 * tests run them on made-up register contents.
 */
#ifndef REWIND_RTC_H
#define REWIND_RTC_H

#include "kernel/lib/types.h"

struct rtc_time {
	unsigned year;	/* e.g. 2025 */
	unsigned month; /* 1..12 */
	unsigned day;	/* 1..31 */
	unsigned hour, min, sec;
};

/* The registers as read, before decoding. */
struct rtc_registers {
	u8 sec, min, hour, day, month, year;
	u8 century;  /* 0 when the firmware names no century register */
	u8 status_b; /* bit 2: binary (else BCD); bit 1: 24-hour (else 12-hour) */
};

u8 rtc_bcd_to_bin(u8 bcd);
/* Decodes the registers; false if they do not hold a valid date and time. */
bool rtc_decode(const struct rtc_registers *r, struct rtc_time *out);
/* Days from 1970-01-01 to the given date (proleptic Gregorian calendar). */
s64 days_from_civil(s64 year, unsigned month, unsigned day);
/* Seconds since the Unix epoch, the RTC being kept in UTC. */
u64 rtc_time_to_unix(const struct rtc_time *t);
/* Reads the RTC (waiting out an update in progress); false if it holds no valid date. */
bool rtc_read(struct rtc_time *out);

#endif
