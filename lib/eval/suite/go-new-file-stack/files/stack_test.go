package evaltask

import "testing"

func TestStack(t *testing.T) {
	var s Stack[int]
	if _, ok := s.Pop(); ok {
		t.Fatal("Pop on an empty stack should give ok == false")
	}
	s.Push(1)
	s.Push(2)
	if v, ok := s.Peek(); !ok || v != 2 {
		t.Fatalf("Peek = %v, %v; want 2, true", v, ok)
	}
	if s.Len() != 2 {
		t.Fatalf("Len = %d, want 2", s.Len())
	}
	if v, _ := s.Pop(); v != 2 {
		t.Fatalf("Pop = %v, want 2", v)
	}
	if v, _ := s.Pop(); v != 1 {
		t.Fatalf("Pop = %v, want 1", v)
	}
	if _, ok := s.Peek(); ok || s.Len() != 0 {
		t.Fatal("the stack should be empty")
	}
	var words Stack[string]
	words.Push("a")
	if v, _ := words.Pop(); v != "a" {
		t.Fatalf("Pop = %q, want \"a\"", v)
	}
}
