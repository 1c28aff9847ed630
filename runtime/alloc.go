package runtime

// These helpers let generated decoders build values in place without spelling their
// types, which may be unnamed struct types.

// MakeSlice sets *s to an empty, non-nil slice, as encoding/json decodes [].
func MakeSlice[S ~[]E, E any](s *S) { *s = S{} }

// Append appends a zero element to *s and returns a pointer to it, for the decoder to
// fill in place.
func Append[S ~[]E, E any](s *S) *E {
	var zero E
	*s = append(*s, zero)
	return &(*s)[len(*s)-1]
}

// MakeMap sets *m to an empty map.
func MakeMap[M ~map[K]V, K comparable, V any](m *M) { *m = M{} }

// ZeroValue returns the zero value of m's element type.
func ZeroValue[M ~map[K]V, K comparable, V any](m M) V {
	var zero V
	return zero
}

// New sets *p to a new zero value and returns it.
func New[T any](p **T) *T {
	*p = new(T)
	return *p
}

// Ensure allocates *p if it is nil, for embedded structs reached through a pointer.
func Ensure[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}
