package regen

// TestOnly is in a test file, which toolgen generate does not read: its directive is
// not looked at.
//
//toolgen:tool redonly
func TestOnly() {}
