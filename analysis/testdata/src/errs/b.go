package bad

// ReadOnlyText can be read from text but not written as text.
type ReadOnlyText struct{ V int }

// UnmarshalText parses it.
func (r *ReadOnlyText) UnmarshalText([]byte) error { return nil }

// Both takes and returns ReadOnlyText.
//
//toolgen:tool
func Both(t ReadOnlyText, n int) (ReadOnlyText, error) { return t, nil } // want `result: type ReadOnlyText is read as text \(UnmarshalText/MarshalText\) but written as its structure; use it only as input or only as output`

// Out returns something unsupported.
//
//toolgen:tool
func Out() (chan int, error) { return nil, nil } // want `result: unsupported type chan int: channels have no JSON form`

func helper() {
	// want +2 `//toolgen:tool must be in the doc comment of a func declaration`

	//toolgen:tool
	_ = 1
}
