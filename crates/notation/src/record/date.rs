//! The `Date` tag: a civil date from the system clock, `YYYY.MM.DD` (UTC).

use std::time::{SystemTime, UNIX_EPOCH};

/// The proleptic Gregorian date `(year, month, day)` of a day counted from
/// 1970-01-01 (Howard Hinnant's algorithm).
///
/// ```
/// use tuzdyk_notation::record::civil_from_days;
///
/// assert_eq!(civil_from_days(0), (1970, 1, 1));
/// assert_eq!(civil_from_days(-1), (1969, 12, 31));
/// ```
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The date of `time` as a record's `Date` tag writes it (UTC).
pub fn date_tag(time: SystemTime) -> String {
    let days = match time.duration_since(UNIX_EPOCH) {
        Ok(since) => (since.as_secs() / 86_400) as i64,
        Err(before) => -(before.duration().as_secs().div_ceil(86_400) as i64),
    };
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Today's `Date` tag.
pub fn today() -> String {
    date_tag(SystemTime::now())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn date_tags_on_fixed_days() {
        let day =
            |days: u64, seconds: u64| UNIX_EPOCH + Duration::from_secs(days * 86_400 + seconds);
        assert_eq!(date_tag(day(0, 0)), "1970.01.01");
        assert_eq!(date_tag(day(11_016, 86_399)), "2000.02.29");
        assert_eq!(date_tag(day(20_788, 12 * 3600)), "2026.12.01");
        assert_eq!(date_tag(UNIX_EPOCH - Duration::from_secs(1)), "1969.12.31");
    }
}
