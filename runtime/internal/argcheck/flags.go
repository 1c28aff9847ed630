package argcheck

// PropertyFlags say how a property is read; combine them with |.
type PropertyFlags uint8

// The property flags.
const (
	// Required is the zero value: null is a value like any other.
	Required PropertyFlags = 0
	// Optional: null means the property is absent.
	Optional PropertyFlags = 1 << iota
	// Sensitive: the property's values are never echoed in violations.
	Sensitive
)

// Presence records what an object held for one of its properties.
type Presence uint8

// The presences of a property.
const (
	// Absent: the object did not hold the property.
	Absent Presence = iota
	// Null: it held null for an optional property, which counts as absent.
	Null
	// Present: it held a value.
	Present
)
