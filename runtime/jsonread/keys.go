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

// keyEntry is a key of an open object.
type keyEntry struct {
	start, end int32 // the key's bytes, quotes excluded
	// n is the length of the key as its object compares it (decoded, and folded),
	// when that is at most shortKey bytes, and w those bytes: the first eight and the
	// last eight, little-endian, zero beyond the key. Two short keys are the same key
	// when their n and w are equal. n is -1 for a longer key.
	n      int32
	w0, w1 uint64
	// hash is of the key as its object compares it; equal ones are compared. A long
	// key always has one; a short key gets one when its object's keys are put in a
	// hash table (hashed).
	hash   uint32
	hashed bool
}

// shortKey is the longest key, as its object compares it, that a keyEntry holds
// itself: such keys are compared whole, in two words, without hashing them.
const shortKey = 16

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
// A short key (see shortKey) is compared whole, in two words, with the others of an
// object with at most linearKeys keys; a plain short key is neither copied nor hashed
// there. A key of an object with more keys, or a longer one, is hashed with the
// Scanner's seed and looked up among the keys with its hash.
func (t *keySet) add(d []byte, f *frame, start, end int, plain bool) (key []byte, first int) {
	fold := f.keys == KeysFold
	e := keyEntry{start: int32(start), end: int32(end), n: -1}
	if plain && end-start <= shortKey {
		e.n = int32(end - start)
		e.w0, e.w1 = words(d, start, end)
		if fold {
			e.w0, e.w1 = upperASCII(e.w0), upperASCII(e.w1)
		}
	} else {
		key = decoded(d, start, end, plain, fold, &t.a)
		if len(key) <= shortKey {
			e.n = int32(len(key))
			e.w0, e.w1 = words(key, 0, len(key))
		} else {
			e.hash, e.hashed = uint32(maphash.Bytes(t.seed, key)), true
		}
	}
	if f.table == 0 {
		for j := int(f.n); j < len(t.keys); j++ {
			if k := &t.keys[j]; k.n == e.n && (e.n >= 0 && k.w0 == e.w0 && k.w1 == e.w1 || e.n < 0 && k.hash == e.hash && t.same(d, j, key, fold)) {
				return key, j
			}
		}
	} else {
		t.hash(&e)
		tb := t.tables[f.table-1]
		mask := uint32(len(tb) - 1)
		for p := e.hash & mask; tb[p] != 0; p = (p + 1) & mask {
			if j := int(tb[p] - 1); t.keys[j].hash == e.hash && t.equal(d, j, &e, key, fold) {
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
		insert(t.tables[f.table-1], t.keys, len(t.keys)-1)
	}
	return key, -1
}

// hash gives e its hash, if it has none: a short key's is of its length and words.
func (t *keySet) hash(e *keyEntry) {
	if e.hashed {
		return
	}
	var b [2*8 + 1]byte
	binary.LittleEndian.PutUint64(b[0:], e.w0)
	binary.LittleEndian.PutUint64(b[8:], e.w1)
	b[16] = byte(e.n)
	e.hash, e.hashed = uint32(maphash.Bytes(t.seed, b[:])), true
}

// equal reports whether keys[j] is the key of e, whose compared form is key when it
// is long.
func (t *keySet) equal(d []byte, j int, e *keyEntry, key []byte, fold bool) bool {
	k := &t.keys[j]
	if k.n != e.n {
		return false
	}
	if e.n >= 0 {
		return k.w0 == e.w0 && k.w1 == e.w1
	}
	return t.same(d, j, key, fold)
}

// words returns the bytes b[start:end], at most shortKey of them, as two words: the
// first eight and the last eight, little-endian, zero beyond the key's end; for fewer
// than nine bytes the second is zero. With the length they are the bytes.
func words(b []byte, start, end int) (w0, w1 uint64) {
	n := end - start
	switch {
	case n > 8:
		return binary.LittleEndian.Uint64(b[start:]), binary.LittleEndian.Uint64(b[end-8:])
	case start+8 <= len(b):
		return binary.LittleEndian.Uint64(b[start:]) & (1<<(8*n) - 1), 0
	}
	for i := end - 1; i >= start; i-- {
		w0 = w0<<8 | uint64(b[i])
	}
	return w0, 0
}

// upperASCII returns x, eight bytes of ASCII, with each lower-case letter in upper
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
		t.hash(&t.keys[j])
		insert(tb, t.keys, j)
	}
	t.tables[f.table-1] = tb
}

// insert puts keys[j] into the hash table tb, which has a free slot.
func insert(tb []int32, keys []keyEntry, j int) {
	mask := uint32(len(tb) - 1)
	p := keys[j].hash & mask
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
