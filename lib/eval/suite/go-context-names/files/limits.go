package evaltask

// Limits on account names, shared by the web form and the import tool.
const (
	MinNameLength = 3
	MaxNameLength = 24
)

// ReservedNames may never be taken, in any mix of upper and lower case.
var ReservedNames = []string{"admin", "root", "support"}
