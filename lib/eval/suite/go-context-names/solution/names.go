package evaltask

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadName is returned (possibly wrapped) for every name ValidateName refuses.
var ErrBadName = errors.New("bad account name")

// ValidateName returns nil when name may be used as an account name.
func ValidateName(name string) error {
	if len(name) < MinNameLength || len(name) > MaxNameLength {
		return fmt.Errorf("%w: %q must be %d to %d characters", ErrBadName, name, MinNameLength, MaxNameLength)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return fmt.Errorf("%w: %q may hold only letters, digits and _", ErrBadName, name)
		}
	}
	for _, reserved := range ReservedNames {
		if strings.EqualFold(name, reserved) {
			return fmt.Errorf("%w: %q is reserved", ErrBadName, name)
		}
	}
	return nil
}
