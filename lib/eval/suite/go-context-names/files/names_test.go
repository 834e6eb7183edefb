package evaltask

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"bob", "Alice_42", strings.Repeat("x", 24)} {
		if err := ValidateName(ok); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "al", strings.Repeat("x", 25), "ADMIN", "Root", "support", "has space", "dash-ed", "émile"} {
		if err := ValidateName(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("ValidateName(%q) = %v, want an error wrapping ErrBadName", bad, err)
		}
	}
}
