/*
 * rtc.c - reading and decoding the CMOS real-time clock; see rtc.h.
 *
 * Registers: seconds 0x00, minutes 0x02, hours 0x04 (bit 7 = PM in 12-hour
 * mode), day of month 0x07, month 0x08, year 0x09, status A 0x0a (bit 7:
 * update in progress), status B 0x0b; the century register's index comes
 * from the FADT. While an update is in progress the registers may be
 * mid-carry, so rtc_read() waits for it to end and then reads everything
 * twice, until two readings agree.
 */
#include "drivers/rtc.h"
#include "drivers/acpi.h"
#include "kernel/lib/string.h"
#include "kernel/x86/x86.h"
#include "locking/spinlock.h"

#define CMOS_INDEX	       0x70
#define CMOS_DATA	       0x71
#define RTC_SECONDS	       0x00
#define RTC_MINUTES	       0x02
#define RTC_HOURS	       0x04
#define RTC_DAY		       0x07
#define RTC_MONTH	       0x08
#define RTC_YEAR	       0x09
#define RTC_STATUS_A	       0x0a
#define RTC_STATUS_B	       0x0b
#define RTC_UPDATE_IN_PROGRESS 0x80
#define RTC_BINARY	       0x04
#define RTC_24HOUR	       0x02
#define RTC_PM		       0x80
#define RTC_TRIES	       1000
#define RTC_UPDATE_POLLS       100000 /* an update takes under 2 ms: ~10^4 port reads */

u8
rtc_bcd_to_bin(u8 bcd)
{
	return (u8)((bcd >> 4) * 10 + (bcd & 0x0f));
}

/* 12-hour clocks count 12, 1, ..., 11 in each half of the day. */
static unsigned
hour_24(unsigned hour_12, bool pm)
{
	return hour_12 % 12 + (pm ? 12 : 0);
}

static bool
days_in_month_ok(unsigned year, unsigned month, unsigned day)
{
	static const u8 days[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	if (month < 1 || month > 12 || day < 1 || day > days[month - 1])
		return false;
	return month != 2 || day <= 28 || leap;
}

static unsigned
field(u8 v, bool binary)
{
	return binary ? v : rtc_bcd_to_bin(v);
}

bool
rtc_decode(const struct rtc_registers *r, struct rtc_time *out)
{
	bool binary = r->status_b & RTC_BINARY;
	bool clock_24h = r->status_b & RTC_24HOUR;
	unsigned hour = field(r->hour & (u8)~RTC_PM, binary);

	if (!clock_24h) {
		if (hour < 1 || hour > 12)
			return false;
		hour = hour_24(hour, r->hour & RTC_PM);
	}
	*out = (struct rtc_time){
		.year = (r->century ? field(r->century, binary) : 20) * 100 +
			field(r->year, binary),
		.month = field(r->month, binary),
		.day = field(r->day, binary),
		.hour = hour,
		.min = field(r->min, binary),
		.sec = field(r->sec, binary),
	};
	return days_in_month_ok(out->year, out->month, out->day) && out->hour < 24 &&
	       out->min < 60 && out->sec < 60;
}

/*
 * Counts days in eras of 400 years (146097 days each), with the year
 * starting on March 1st so that the leap day is the last day of a year.
 * 719468 is the day number of 1970-01-01 counted that way from 0000-03-01.
 */
s64
days_from_civil(s64 year, unsigned month, unsigned day)
{
	if (month <= 2)
		year--;
	s64 era = (year >= 0 ? year : year - 399) / 400;
	s64 year_of_era = year - era * 400;
	unsigned month_from_march = month > 2 ? month - 3 : month + 9;
	s64 day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
	s64 day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;

	return era * 146097 + day_of_era - 719468;
}

u64
rtc_time_to_unix(const struct rtc_time *t)
{
	s64 days = days_from_civil(t->year, t->month, t->day);

	return (u64)days * 86400 + t->hour * 3600 + t->min * 60 + t->sec;
}

/* ---- the hardware ----------------------------------------------------------- */

static struct spinlock cmos_lock = SPINLOCK_INIT("cmos");

static u8
cmos_read(u8 index)
{
	outb(CMOS_INDEX, index);
	return inb(CMOS_DATA);
}

static void
read_registers(struct rtc_registers *r)
{
	for (int i = 0; i < RTC_UPDATE_POLLS && (cmos_read(RTC_STATUS_A) & RTC_UPDATE_IN_PROGRESS);
	     i++)
		cpu_relax();
	r->sec = cmos_read(RTC_SECONDS);
	r->min = cmos_read(RTC_MINUTES);
	r->hour = cmos_read(RTC_HOURS);
	r->day = cmos_read(RTC_DAY);
	r->month = cmos_read(RTC_MONTH);
	r->year = cmos_read(RTC_YEAR);
	r->century = acpi.rtc_century_index ? cmos_read(acpi.rtc_century_index) : 0;
	r->status_b = cmos_read(RTC_STATUS_B);
}

bool
rtc_read(struct rtc_time *out)
{
	struct rtc_registers a, b;
	u64 flags = spin_lock_irqsave(&cmos_lock);
	int tries = 0;

	read_registers(&b);
	do {
		a = b;
		read_registers(&b);
	} while (memcmp(&a, &b, sizeof(a)) != 0 && ++tries < RTC_TRIES);
	spin_unlock_irqrestore(&cmos_lock, flags);
	return tries < RTC_TRIES && rtc_decode(&b, out);
}
