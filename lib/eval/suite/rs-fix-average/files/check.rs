#[path = "stats.rs"]
mod stats;

#[test]
fn average_of_values() {
    assert_eq!(stats::average(&[1, 2, 3, 4]), Some(2.5));
    assert_eq!(stats::average(&[-5]), Some(-5.0));
}

#[test]
fn average_of_nothing_is_none() {
    assert_eq!(stats::average(&[]), None);
}

#[test]
fn average_does_not_overflow() {
    assert_eq!(stats::average(&[i64::MAX, i64::MAX]), Some(i64::MAX as f64));
}

#[test]
fn spread_unchanged() {
    assert_eq!(stats::spread(&[3, 9, 4]), Some(6));
    assert_eq!(stats::spread(&[]), None);
}
