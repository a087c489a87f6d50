//! How food bought over the months is told apart from the rest of its
//! kind: by its best-before day, the last words of its description
//! ("carton of semi-skimmed milk, best before day 19"; days of the trace,
//! as the trace counts them). Written by the scripted household's stock,
//! read by it and by the lint.

const BEST_BEFORE: &str = ", best before day ";

/// `description` labelled with its best-before `day`.
pub fn with_best_before(description: &str, day: u32) -> String {
    format!("{description}{BEST_BEFORE}{day}")
}

/// The best-before day a description gives, if any.
pub fn best_before(description: &str) -> Option<u32> {
    description.rsplit_once(BEST_BEFORE)?.1.parse().ok()
}

/// A description as said aloud: without its best-before ("the carton of
/// milk", not "the carton of milk, best before day 19").
pub fn plain(description: &str) -> &str {
    description
        .split_once(BEST_BEFORE)
        .map_or(description, |(d, _)| d)
}

/// A description as it reads mid-sentence: "carton of milk marked best
/// before day 19" (the comma of the written label would need its closing
/// comma before the sentence goes on).
pub fn in_a_sentence(description: &str) -> std::borrow::Cow<'_, str> {
    match description.split_once(BEST_BEFORE) {
        Some((d, day)) => format!("{d} marked best before day {day}").into(),
        None => description.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_best_before_is_written_read_and_left_unsaid() {
        let d = with_best_before("carton of milk", 19);
        assert_eq!(d, "carton of milk, best before day 19");
        assert_eq!(best_before(&d), Some(19));
        assert_eq!(plain(&d), "carton of milk");
        assert_eq!(best_before("carton of milk"), None);
        assert_eq!(best_before("jam, best before day soon"), None);
        assert_eq!(
            in_a_sentence("carton of milk, best before day 19"),
            "carton of milk marked best before day 19"
        );
        assert_eq!(in_a_sentence("jar of jam"), "jar of jam");
        assert_eq!(plain("carton of milk"), "carton of milk");
    }
}
