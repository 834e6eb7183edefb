#[path = "roman.rs"]
mod roman;

#[test]
fn numerals() {
    let cases = [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"), (400, "CD"), (1994, "MCMXCIV"), (2026, "MMXXVI"), (3999, "MMMCMXCIX")];
    for (n, want) in cases {
        assert_eq!(roman::to_roman(n).as_deref(), Some(want), "to_roman({n})");
    }
}

#[test]
fn out_of_range() {
    assert_eq!(roman::to_roman(0), None);
    assert_eq!(roman::to_roman(4000), None);
}
