//! The clock the sandbox's accounts count their monthly periods by: the system's, or one a test sets, so a period's
//! renewal is tested without waiting a month and without racing the real clock.

use std::fmt;
use std::sync::Arc;

/// What time it is, in epoch milliseconds.
#[derive(Clone)]
pub struct Clock {
    now: Arc<dyn Fn() -> i64 + Send + Sync>,
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Self {
        Clock::from_fn(vstage_api::time::now_millis)
    }

    /// A clock that reads `now` (a test's, e.g. an `AtomicI64` it moves on).
    pub fn from_fn(now: impl Fn() -> i64 + Send + Sync + 'static) -> Self {
        Clock { now: Arc::new(now) }
    }

    pub fn now_millis(&self) -> i64 {
        (self.now)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Clock")
    }
}

/// The instant `months` calendar months after `anchor` (UTC), on the anchor's day of the month, or the month's last
/// day when it is shorter (a period that began on 31 January renews on 28 or 29 February, then on 31 March).
pub fn months_after(anchor: i64, months: i64) -> i64 {
    const DAY: i64 = 86_400_000;
    let (days, time_of_day) = (anchor.div_euclid(DAY), anchor.rem_euclid(DAY));
    let (year, month, day) = civil_from_days(days);
    let index = year * 12 + (month - 1) + months;
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) + 1);
    let day = day.min(days_in_month(year, month));
    days_from_civil(year, month, day) * DAY + time_of_day
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a number of days since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-01-31T10:00:00Z and the months after it.
    const JANUARY_31: i64 = 1_769_853_600_000;

    #[test]
    fn a_month_later_is_the_same_day_or_the_months_last() {
        assert_eq!(days_from_civil(2026, 1, 31) * 86_400_000 + 36_000_000, JANUARY_31);
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        let date = |at: i64| civil_from_days(at.div_euclid(86_400_000));
        assert_eq!(date(months_after(JANUARY_31, 1)), (2026, 2, 28));
        assert_eq!(date(months_after(JANUARY_31, 2)), (2026, 3, 31), "from the anchor, not from February");
        assert_eq!(date(months_after(JANUARY_31, 13)), (2027, 2, 28));
        assert_eq!(date(months_after(JANUARY_31, 25)), (2028, 2, 29), "a leap year");
        assert_eq!(date(months_after(JANUARY_31, -1)), (2025, 12, 31));
        assert_eq!(months_after(JANUARY_31, 1).rem_euclid(86_400_000), 36_000_000, "the same time of day");
        for days in [-800_000, -1, 0, 59, 60, 365, 11_016, 20_483, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }
}
