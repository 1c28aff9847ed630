// Package lists holds the list logic that package runtime's schema interpreter and the
// generated-code helpers of runtime/toolimpl share.
package lists

// Duplicate returns the first pair of equal items of items, i < j, by the position of
// the second one; ok is false when all are distinct.
func Duplicate[T comparable](items []T) (i, j int, ok bool) {
	if len(items) < 2 {
		return 0, 0, false
	}
	seen := make(map[T]int, len(items))
	for j, v := range items {
		if i, dup := seen[v]; dup {
			return i, j, true
		}
		seen[v] = j
	}
	return 0, 0, false
}
