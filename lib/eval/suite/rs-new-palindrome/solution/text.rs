/// The number of words in `s`, words being separated by whitespace.
pub fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}

/// True when `s` reads the same backwards, ignoring case and anything not alphanumeric.
pub fn is_palindrome(s: &str) -> bool {
    let chars: Vec<char> = s
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    chars.iter().eq(chars.iter().rev())
}
