#[path = "text.rs"]
mod text;

#[test]
fn palindromes() {
    assert!(text::is_palindrome("A man, a plan, a canal: Panama!"));
    assert!(text::is_palindrome("Was it a car or a cat I saw?"));
    assert!(text::is_palindrome("Ésé"));
    assert!(text::is_palindrome(""));
    assert!(text::is_palindrome("!!"));
}

#[test]
fn not_palindromes() {
    assert!(!text::is_palindrome("palindrome"));
    assert!(!text::is_palindrome("ab"));
}

#[test]
fn word_count_unchanged() {
    assert_eq!(text::word_count("  two  words "), 2);
}
