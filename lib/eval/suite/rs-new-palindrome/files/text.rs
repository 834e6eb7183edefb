/// The number of words in `s`, words being separated by whitespace.
pub fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}
