package evaltask

import "testing"

func TestReverseWords(t *testing.T) {
	cases := map[string]string{
		"hello big world":          "world big hello",
		"  hello   big world ":     "world big hello",
		"one":                      "one",
		"":                         "",
		"   ":                      "",
		"tabs\tand\nnewlines  too": "too newlines and tabs",
	}
	for in, want := range cases {
		if got := ReverseWords(in); got != want {
			t.Errorf("ReverseWords(%q) = %q, want %q", in, got, want)
		}
	}
}
