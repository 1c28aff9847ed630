package jsonread

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// LinearKeys is how many keys an object has before a Scanner looks a new key up in a
// hash table of them, rather than comparing it with each (tests reach both ways with
// it).
const LinearKeys = 16

const linearKeys = LinearKeys

// firstTable is the size of an object's first hash table, in slots: a table is at most
// half full.
const firstTable = 4 * linearKeys

// keyEntry is a key of an open object: 16 bytes, so that the memory of the keys of
// the objects open at once stays within a few bytes per byte of their text.
type keyEntry struct {
	start, end int32 // the key's bytes, quotes excluded
	// w is the key as its object compares it (decoded, and folded). When that is at
	// most shortKey bytes, w holds them, little-endian, zero beyond its end, with its
	// length in the top byte: two short keys are the same key when their w are. Of a
	// longer key, w is its hash with the top byte longKey; two long keys with the same
	// w are compared.
	w uint64
}

// shortKey is the longest key, as its object compares it, that a keyEntry holds
// itself: such keys are compared whole, in a word, without hashing them.
const shortKey = 7

// longKey is the top byte of a long key's w, above any short key's length.
const longKey = 0xff

// keySet holds the keys of the open objects whose keys are compared.
type keySet struct {
	seed maphash.Seed // random in each Scanner, so that no text can make keys collide on purpose
	keys []keyEntry   // of the open objects, in order
	// tables are the hash tables of the open objects with more than linearKeys keys:
	// open addressing, a power of two of slots, each 1 + an index in keys or 0 when free.
	tables [][]int32
	spare  []int32 // a free table of firstTable slots
	a, b   []byte  // decoded keys
}

func (t *keySet) reset() {
	if t.seed == (maphash.Seed{}) {
		t.seed = maphash.MakeSeed()
	}
	t.keys = t.keys[:0]
	clear(t.tables)
	t.tables = t.tables[:0]
}

func (t *keySet) release() {
	t.reset()
	if cap(t.keys) > maxKeptKeys || cap(t.a) > maxKeptBytes || cap(t.b) > maxKeptBytes {
		t.keys, t.a, t.b = nil, nil, nil
	}
}

// pop forgets the keys of the object of f, which is closed.
func (t *keySet) pop(f *frame) {
	if f.keys == KeysAny || int(f.n) > len(t.keys) {
		return
	}
	t.keys = t.keys[:f.n]
	if f.table != 0 {
		if tb := t.tables[f.table-1]; len(tb) == firstTable {
			clear(tb)
			t.spare = tb
		}
		t.tables[f.table-1] = nil
		t.tables = t.tables[:f.table-1]
	}
}

// decoded returns the key d[start:end] (quotes excluded), plain or not (see
// ScanString), decoded into *buf when it must be, and folded when fold is set.
func decoded(d []byte, start, end int, plain, fold bool, buf *[]byte) []byte {
	key := d[start:end]
	switch {
	case fold && plain:
		*buf = append((*buf)[:0], key...)
		key = Fold(*buf)
	case fold:
		key = Fold(decodeInto(buf, d, start, end))
	case !plain:
		key = decodeInto(buf, d, start, end)
	}
	return key
}

// decodeInto decodes the well-formed string whose contents are d[start:end] into
// *buf, grown once to the most they decode to (a byte of invalid UTF-8 is three of
// U+FFFD).
func decodeInto(buf *[]byte, d []byte, start, end int) []byte {
	*buf = slices.Grow((*buf)[:0], 3*(end-start))
	s, _, _ := ReadString(d, start-1, buf)
	if len(s) > 0 && (len(*buf) == 0 || &s[0] != &(*buf)[0]) {
		// String left valid UTF-8 without escapes in place: a copy, for Fold.
		*buf = append((*buf)[:0], s...)
		return *buf
	}
	return s
}

// add adds the key d[start:end] (quotes excluded) to the innermost object, f, and
// returns it as the object compares keys (valid until the next add; nil when it is
// d[start:end] itself, plain and short, which the caller folds if it wants it
// folded) and -1, or, when the object has it already, the index in keys of the first.
//
// A short key (see shortKey) is compared whole, in a word; a plain short key is
// neither copied nor hashed in an object of up to linearKeys keys. A longer key is
// hashed with the Scanner's seed, and so is every key of a larger object, to look it
// up in the object's hash table.
func (t *keySet) add(d []byte, f *frame, start, end int, plain bool) (key []byte, first int) {
	fold := f.keys == KeysFold
	e := keyEntry{start: int32(start), end: int32(end)}
	if plain && end-start <= shortKey {
		e.w = word(d, start, end)
		if fold {
			e.w = upperASCII(e.w)
		}
	} else {
		key = decoded(d, start, end, plain, fold, &t.a)
		if len(key) <= shortKey {
			e.w = word(key, 0, len(key))
		} else {
			e.w = maphash.Bytes(t.seed, key) | longKey<<56
		}
	}
	if f.table == 0 {
		for j := int(f.n); j < len(t.keys); j++ {
			if t.equal(d, j, &e, key, fold) {
				return key, j
			}
		}
	} else {
		tb := t.tables[f.table-1]
		mask := uint32(len(tb) - 1)
		for p := t.slot(&e) & mask; tb[p] != 0; p = (p + 1) & mask {
			if j := int(tb[p] - 1); t.equal(d, j, &e, key, fold) {
				return key, j
			}
		}
	}
	if len(t.keys) == cap(t.keys) {
		t.keys = slices.Grow(t.keys, max(cap(t.keys), 64)) // double: append grows large slices by less
	}
	t.keys = append(t.keys, e)
	switch n := len(t.keys) - int(f.n); {
	case f.table == 0 && n > linearKeys:
		t.tables = append(t.tables, nil)
		f.table = int32(len(t.tables))
		t.index(f, firstTable)
	case f.table != 0 && 2*n > len(t.tables[f.table-1]):
		t.index(f, 2*len(t.tables[f.table-1]))
	case f.table != 0:
		t.insert(t.tables[f.table-1], len(t.keys)-1)
	}
	return key, -1
}

// equal reports whether keys[j] is the key of e, whose compared form is key when it
// is long.
func (t *keySet) equal(d []byte, j int, e *keyEntry, key []byte, fold bool) bool {
	k := &t.keys[j]
	return k.w == e.w && (e.w>>56 != longKey || t.same(d, j, key, fold))
}

// slot returns the hash that places e in a hash table: a long key's own, and a short
// key's word hashed with the Scanner's seed.
func (t *keySet) slot(e *keyEntry) uint32 {
	if e.w>>56 == longKey {
		return uint32(e.w)
	}
	return uint32(maphash.Comparable(t.seed, e.w))
}

// word returns the bytes b[start:end], at most shortKey of them, as a keyEntry holds
// them: little-endian, zero beyond the end, and their number in the top byte.
func word(b []byte, start, end int) uint64 {
	n := end - start
	var w uint64
	if start+8 <= len(b) {
		w = binary.LittleEndian.Uint64(b[start:]) & (1<<(8*n) - 1)
	} else {
		for i := end - 1; i >= start; i-- {
			w = w<<8 | uint64(b[i])
		}
	}
	return w | uint64(n)<<56
}

// upperASCII returns x, eight bytes below 0x80, with each lower-case letter in upper
// case, as Fold folds them.
func upperASCII(x uint64) uint64 {
	const ones = 0x0101010101010101
	// A byte's high bit is set in a when it is at least 'a', in z when it is above 'z':
	// no byte carries into the next, all being below 0x80.
	a := x + ones*(0x80-'a')
	z := x + ones*(0x80-'z'-1)
	return x - (a&^z&(ones*0x80))>>2
}

// index gives the object of f a new hash table of size slots holding its keys.
func (t *keySet) index(f *frame, size int) {
	var tb []int32
	if size == firstTable && t.spare != nil {
		tb, t.spare = t.spare, nil
	} else {
		tb = make([]int32, size)
	}
	for j := int(f.n); j < len(t.keys); j++ {
		t.insert(tb, j)
	}
	t.tables[f.table-1] = tb
}

// insert puts keys[j] into the hash table tb, which has a free slot.
func (t *keySet) insert(tb []int32, j int) {
	mask := uint32(len(tb) - 1)
	p := t.slot(&t.keys[j]) & mask
	for tb[p] != 0 {
		p = (p + 1) & mask
	}
	tb[p] = int32(j + 1)
}

// same reports whether keys[j], decoded, and case folded when fold is set, is key.
func (t *keySet) same(d []byte, j int, key []byte, fold bool) bool {
	e := t.keys[j]
	raw := d[e.start:e.end]
	return string(decoded(d, int(e.start), int(e.end), isPlain(raw), fold, &t.b)) == string(key)
}

// isPlain reports whether a key has neither escapes nor bytes outside ASCII.
func isPlain(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
