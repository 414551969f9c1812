//! The daily puzzle: the same 9×9 for everyone on a given date (UTC), from
//! a seed derived from the date alone, at a level that climbs through the
//! week — easy on Monday to extreme on Sunday. (For one version of
//! dekadoku: a change to the generator may change a date's puzzle.)

use std::time::{SystemTime, UNIX_EPOCH};

use crate::engine::level::Level;
use crate::engine::shape::Shape;

use super::random::splitmix64;
use super::{GenerateOptions, Symmetry};

/// A calendar date (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// The year.
    pub year: i64,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
}

impl Date {
    /// The date `days` after 1970-01-01.
    pub fn from_days(days: i64) -> Date {
        // Count from 0000-03-01 so the leap day ends each 4-, 100- and
        // 400-year cycle.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Date {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
        }
    }

    /// Days from 1970-01-01 to this date.
    pub fn days(self) -> i64 {
        let y = self.year - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// Today in UTC, by the system clock.
    pub fn today() -> Date {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days((secs / 86_400) as i64)
    }

    /// Parses `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.trim().splitn(3, '-');
        let year = parts.next()?.parse().ok()?;
        let month: u32 = parts.next()?.parse().ok()?;
        let day: u32 = parts.next()?.parse().ok()?;
        let date = Date { year, month, day };
        // Only real dates round-trip through the day count.
        (Date::from_days(date.days()) == date).then_some(date)
    }

    /// 0 = Monday … 6 = Sunday.
    pub fn weekday(self) -> u32 {
        // 1970-01-01 was a Thursday (3).
        (self.days() + 3).rem_euclid(7) as u32
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The daily puzzle's level: easy, medium, medium, hard, hard, expert,
/// extreme from Monday to Sunday.
pub fn daily_level(date: Date) -> Level {
    const WEEK: [Level; 7] = [
        Level::Easy,
        Level::Medium,
        Level::Medium,
        Level::Hard,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];
    WEEK[date.weekday() as usize]
}

/// What to generate (with [`super::generate_graded`]) for `date`'s puzzle:
/// 9×9, 180° symmetry, the day's level, a seed from the date.
pub fn daily_options(date: Date) -> GenerateOptions {
    let seed = splitmix64(0xDA17_0000_0000_0000 ^ date.days() as u64);
    let mut opts = GenerateOptions::new(Shape::CLASSIC, daily_level(date), seed);
    opts.symmetry = Symmetry::Rotate180;
    opts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::generate_graded;
    use crate::engine::limits::Limits;

    #[test]
    fn dates_and_days_round_trip() {
        for days in [-800_000, -1, 0, 1, 59, 365, 11_016, 20_414, 2_932_896] {
            assert_eq!(Date::from_days(days).days(), days);
        }
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        let d = Date::parse("2026-11-22").unwrap();
        assert_eq!(d.to_string(), "2026-11-22");
        assert_eq!(d.weekday(), 6, "a Sunday");
        assert_eq!(Date::parse("2024-02-29").map(|d| d.day), Some(29));
        for bad in ["2026-02-29", "2026-13-01", "2026-1", "today", ""] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_daily_puzzle_depends_on_the_date_only() {
        let monday = Date::parse("2026-11-16").unwrap();
        let tuesday = Date::parse("2026-11-17").unwrap();
        assert_eq!(daily_level(monday), Level::Easy);
        assert_eq!(daily_options(monday), daily_options(monday));
        assert_ne!(daily_options(monday).seed, daily_options(tuesday).seed);
        let a = generate_graded(&daily_options(monday), &Limits::none()).unwrap();
        let b = generate_graded(&daily_options(monday), &Limits::none()).unwrap();
        assert_eq!(a.generated.puzzle, b.generated.puzzle);
        assert_eq!(a.grade.map(|g| g.level), Some(Level::Easy));
    }
}
