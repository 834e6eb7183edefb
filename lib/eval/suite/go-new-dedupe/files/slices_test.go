package evaltask

import (
	"reflect"
	"testing"
)

func TestDedupe(t *testing.T) {
	got := Dedupe([]string{"b", "a", "b", "c", "a"})
	if want := []string{"b", "a", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Dedupe = %v, want %v", got, want)
	}
	if got := Dedupe(nil); got == nil || len(got) != 0 {
		t.Errorf("Dedupe(nil) = %#v, want an empty, non-nil slice", got)
	}
}

func TestDedupeLeavesInputAlone(t *testing.T) {
	in := []string{"x", "x", "y"}
	Dedupe(in)
	if !reflect.DeepEqual(in, []string{"x", "x", "y"}) {
		t.Errorf("Dedupe changed its input: %v", in)
	}
	if !Contains(in, "y") {
		t.Error("Contains broke")
	}
}
