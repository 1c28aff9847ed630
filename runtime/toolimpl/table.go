package toolimpl

import (
	"encoding/json"
	"regexp"
	"sync"
	"time"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// Table-driven decoding: for a package of many tools, toolgen writes each argument
// type's decoder as data, an Object, that Decode walks, rather than as a function of
// its own (see toolgen.gen.go's header). It calls the same Decoder methods in the same
// order as the specialised code toolgen writes for smaller packages, so the two give
// the same verdicts, values, messages and paths; the tables are package-level data
// the linker writes, so a tool adds data rather than code to compile.

// Kind is what a Value decodes.
type Kind uint8

// The kinds of values.
const (
	KString   Kind = iota + 1 // a string, or a named string type
	KBool                     // a bool
	KInt                      // a signed integer of Size bytes
	KUint                     // an unsigned integer of Size bytes
	KFloat                    // a float64 (Size 8) or float32 (Size 4)
	KTime                     // a time.Time (RFC 3339, Layout, or a date when Date)
	KDuration                 // a time.Duration
	KBytes                    // a []byte (base64)
	KAny                      // an any
	KRaw                      // a json.RawMessage
	KPointer                  // a pointer to Elem, allocated by Ops
	KSlice                    // a slice of Elem, grown by Ops
	KMap                      // a map[~string]Elem, filled by Ops
	KObject                   // an object: the struct Tables[Ref] describes
	KFunc                     // read by Func (code toolgen writes for what tables do not say)
)

// Check is how a bound or a multipleOf is checked on an integer.
type Check uint8

// The checks.
const (
	CheckNone    Check = iota // no check
	CheckAlways               // every value fails it (the bound lies outside the type)
	CheckCompare              // compared with the value
)

// Value describes how one value is read and checked.
type Value struct {
	Kind Kind
	Size uintptr // bytes of an integer or a float
	// NotNull reads null as the value pointed to, refused by its check (KPointer).
	NotNull bool
	// NotZero refuses 0 or the zero time (validate's required).
	NotZero bool

	// Strings (KString).
	MinLength, MaxLength int               // when HasMinLength, HasMaxLength
	HasMinLength         bool              //
	HasMaxLength         bool              //
	Matcher              func(string) bool // a pattern toolgen turned into Go
	PatternSource        string            // one it did not, compiled on first use
	PatternMessage       string            // the violation of either
	pattern              patternCache
	Format               Format

	// Enum or const values of a string (Strings), an integer (Ints, Uints), a float
	// (Floats) or a duration (Ints); EnumCode and EnumMessage are their violation.
	Strings     []string
	Ints        []int64
	Uints       []uint64
	Floats      []float64
	HasEnum     bool
	EnumCode    invalid.Code
	EnumMessage string

	// A bool's const (KBool), when HasConst.
	Const    bool
	HasConst bool

	// Integers: the range given to Decoder.Int or Decoder.Uint, then the exclusive
	// bounds and multipleOf, each with its Check and its violation's message.
	Min, Max           int64
	UMin, UMax         uint64
	ExMin, ExMax       Check
	ExMinInt, ExMaxInt int64
	ExMinUint          uint64
	ExMaxUint          uint64
	ExMinMessage       string
	ExMaxMessage       string
	Multiple           Check
	MultipleInt        int64
	MultipleUint       uint64
	MultipleMessage    string

	// Floats: the bounds (each when its Has), compared as the specialised code does.
	FMin, FMax, FExMin, FExMax float64
	HasFMin, HasFMax           bool
	HasFExMin, HasFExMax       bool
	FMinMsg, FMaxMsg           string
	FExMinMsg, FExMaxMsg       string
	MultipleOf                 string // Decoder.MultipleOf's divisor, when not ""

	// Times (KTime): Layout for Decoder.TimeLayout, Date for Decoder.Date.
	Layout string
	Date   bool

	// Lists and maps: MinItems and MaxItems (each when its Has; minProperties and
	// maxProperties of a map), MaxRoom for Item, Unique for uniqueItems.
	MinItems, MaxItems int
	HasMinItems        bool
	HasMaxItems        bool
	Unique             func(d *Decoder, p unsafe.Pointer)
	Keys               []string // a map's allowed keys, when it has an enum of them
	Elem               int      // what a pointer points to, a list's item, a map's value: its index in the Values
	Ops                OpsFunc
	Ref                int // KObject: the index of its Object in the tables
	Func               func(d *Decoder, p unsafe.Pointer)
}

// Field is one property of an Object. It is required unless its Flags say Optional.
type Field struct {
	Name   string
	Offset uintptr // of the Go field in the struct
	Flags  PropertyFlags
	Value  int // the index of its Value in the Tables' Values, which identical fields share
	// The property's default, stored when it is absent (HasDefault): in the field
	// of the Value's kind (a duration's in DefInt), through a pointer when the Value
	// is one.
	HasDefault bool
	DefString  string
	DefBool    bool
	DefInt     int64
	DefUint    uint64
	DefFloat   float64
}

// Object describes a struct read from a JSON object: its properties, in order, are
// the Fields [First, First+Len) of the Tables.
type Object struct {
	First, Len int
	names      []string // the property names, for Decoder.Unknown, once known
	once       sync.Once
}

// Tables are a package's tables: flat lists, which refer to each other by index, so
// that recursive types need no pointers and the generated literals stay shallow
// (go/format takes time exponential in the depth of nested literals).
type Tables struct {
	Objects []Object
	Fields  []Field
	Values  []Value // the values of the fields (Field.Value) and those other values hold (Value.Elem)
}

// Names returns the property names of the Object at index i.
func (t *Tables) names(o *Object) []string {
	o.once.Do(func() {
		names := make([]string, o.Len)
		for j := range names {
			names[j] = t.Fields[o.First+j].Name
		}
		o.names = names
	})
	return o.names
}

// OpsFunc does what a Value of a pointer, slice or map type needs its Go type for: op on
// the pointer, slice or map at p (of the Value v), with arg the list's maxItems (OpItem)
// and key a map's key (OpHas, OpPut). It returns a pointer (OpNew, OpItem, OpHas) or a
// length (OpLen).
type OpsFunc func(op Op, d *Decoder, p unsafe.Pointer, tables *Tables, v *Value, arg int, key []byte) (unsafe.Pointer, int)

// Op is an operation of a Value's Ops on the slice, map or pointer at p.
type Op uint8

// The operations.
const (
	OpNew  Op = iota // a pointer: allocate *p, return it
	OpMake           // a slice or a map: set *p to an empty one
	OpItem           // a slice: return where the next item goes (arg: its maxItems)
	OpHas            // a map: non-nil when it holds key
	OpPut            // a map: decode the value of key (v's Elem) and store it
	OpLen            // a map: its length
)

// maxStackFields is the most properties an object may have for Decode to keep their
// presence on the stack; larger objects allocate it.
const maxStackFields = 32

// Decode reads the object tables[i] describes into the struct at p, as the
// specialised decoder of its type does: BeginObject, then its properties.
func Decode(d *Decoder, tables *Tables, i int, p unsafe.Pointer) {
	if !d.BeginObject() {
		return
	}
	objectBody(d, tables, &tables.Objects[i], p)
}

func objectBody(d *Decoder, tables *Tables, o *Object, p unsafe.Pointer) {
	fields := tables.Fields[o.First : o.First+o.Len]
	var stack [maxStackFields]Presence
	var seen []Presence
	if len(fields) <= maxStackFields {
		seen = stack[:len(fields)]
	} else {
		seen = make([]Presence, len(fields))
	}
	for d.NextField() {
		name := d.FieldName()
		k := -1
		for j := range fields {
			if fields[j].Name == string(name) {
				k = j
				break
			}
		}
		if k < 0 {
			d.Unknown(tables.names(o)...)
			continue
		}
		f := &fields[k]
		if d.Property(&seen[k], f.Name, f.Flags) {
			value(d, tables, &tables.Values[f.Value], unsafe.Add(p, f.Offset), f.Flags&Optional != 0)
			d.Leave()
		}
	}
	for k := range fields {
		f := &fields[k]
		switch {
		case f.Flags&Optional == 0:
			if seen[k] == Absent {
				d.Missing(f.Name)
			}
		case f.HasDefault:
			if seen[k] != Present {
				storeDefault(d, tables, f, unsafe.Add(p, f.Offset))
			}
		}
	}
}

// storeDefault stores f's default at p.
func storeDefault(d *Decoder, tables *Tables, f *Field, p unsafe.Pointer) {
	v := &tables.Values[f.Value]
	if v.Kind == KPointer {
		p, _ = v.Ops(OpNew, d, p, tables, v, 0, nil)
		v = &tables.Values[v.Elem]
	}
	switch v.Kind {
	case KString:
		*(*string)(p) = f.DefString
	case KBool:
		*(*bool)(p) = f.DefBool
	case KInt, KDuration:
		storeInt(v, p, f.DefInt)
	case KUint:
		storeUint(v, p, f.DefUint)
	case KFloat:
		storeFloat(v, p, f.DefFloat)
	}
}

func storeInt(v *Value, p unsafe.Pointer, n int64) {
	switch v.Size {
	case 1:
		*(*int8)(p) = int8(n)
	case 2:
		*(*int16)(p) = int16(n)
	case 4:
		*(*int32)(p) = int32(n)
	default:
		*(*int64)(p) = n
	}
}

func storeUint(v *Value, p unsafe.Pointer, n uint64) {
	switch v.Size {
	case 1:
		*(*uint8)(p) = uint8(n)
	case 2:
		*(*uint16)(p) = uint16(n)
	case 4:
		*(*uint32)(p) = uint32(n)
	default:
		*(*uint64)(p) = n
	}
}

func storeFloat(v *Value, p unsafe.Pointer, f float64) {
	if v.Size == 4 {
		*(*float32)(p) = float32(f)
	} else {
		*(*float64)(p) = f
	}
}

// value reads the value v describes into p; nullHandled says the caller consumed a null.
func value(d *Decoder, tables *Tables, v *Value, p unsafe.Pointer, nullHandled bool) {
	switch v.Kind {
	case KString:
		stringValue(d, v, p)
	case KBool:
		if b, ok := d.Bool(); ok {
			if v.HasConst && b != v.Const {
				d.Fail(invalid.Const, v.EnumMessage)
			}
			*(*bool)(p) = b
		}
	case KInt:
		intValue(d, v, p)
	case KUint:
		uintValue(d, v, p)
	case KFloat:
		floatValue(d, v, p)
	case KTime:
		var t time.Time
		var ok bool
		switch {
		case v.Layout != "":
			t, ok = d.TimeLayout(v.Layout)
		case v.Date:
			t, ok = d.Date()
		default:
			t, ok = d.Time()
		}
		if ok {
			if v.NotZero {
				NotZeroTime(d, t)
			}
			*(*time.Time)(p) = t
		}
	case KDuration:
		if x, ok := d.Duration(); ok {
			if !v.HasEnum {
				if v.NotZero {
					NotZero(d, x)
				}
				*(*time.Duration)(p) = x
				return
			}
			for _, e := range v.Ints {
				if int64(x) == e {
					*(*time.Duration)(p) = x
					return
				}
			}
			d.Fail(v.EnumCode, v.EnumMessage)
		}
	case KBytes:
		if x, ok := d.Bytes(); ok {
			*(*[]byte)(p) = x
		}
	case KAny:
		if x, ok := d.Any(); ok {
			*(*any)(p) = x
		}
	case KRaw:
		if x, ok := d.Raw(); ok {
			*(*json.RawMessage)(p) = x
		}
	case KPointer:
		if !nullHandled && !v.NotNull && d.Null() {
			return
		}
		q, _ := v.Ops(OpNew, d, p, tables, v, 0, nil)
		value(d, tables, &tables.Values[v.Elem], q, false)
	case KSlice:
		if !d.BeginArray() {
			return
		}
		v.Ops(OpMake, d, p, tables, v, 0, nil)
		maxItems := 0
		if v.HasMaxItems {
			maxItems = v.MaxItems
		}
		for d.NextItem() {
			e, _ := v.Ops(OpItem, d, p, tables, v, maxItems, nil)
			value(d, tables, &tables.Values[v.Elem], e, false)
		}
		if v.HasMinItems {
			d.MinItems(d.Count(), v.MinItems)
		}
		if v.HasMaxItems {
			d.MaxItems(d.Count(), v.MaxItems)
		}
		if v.Unique != nil {
			v.Unique(d, p)
		}
	case KMap:
		mapValue(d, tables, v, p)
	case KObject:
		if d.BeginObject() {
			objectBody(d, tables, &tables.Objects[v.Ref], p)
		}
	case KFunc:
		v.Func(d, p)
	}
}

func stringValue(d *Decoder, v *Value, p unsafe.Pointer) {
	if v.HasEnum {
		s, ok := d.StringBytes()
		if !ok {
			return
		}
		for _, e := range v.Strings {
			if e == string(s) {
				*(*string)(p) = e
				return
			}
		}
		d.Fail(v.EnumCode, v.EnumMessage)
		return
	}
	s, ok := d.String()
	if !ok {
		return
	}
	if v.HasMinLength {
		d.MinLength(s, v.MinLength)
	}
	if v.HasMaxLength {
		d.MaxLength(s, v.MaxLength)
	}
	if v.Matcher != nil {
		if !v.Matcher(s) {
			d.Fail(invalid.Pattern, v.PatternMessage)
		}
	} else if v.PatternSource != "" {
		if re := v.pattern.get(v.PatternSource); re == nil || !re.MatchString(s) {
			d.Fail(invalid.Pattern, v.PatternMessage)
		}
	}
	if v.Format != "" {
		d.Format(s, v.Format)
	}
	*(*string)(p) = s
}

func intValue(d *Decoder, v *Value, p unsafe.Pointer) {
	n, ok := d.Int(v.Min, v.Max)
	if !ok {
		return
	}
	if v.NotZero {
		NotZero(d, n)
	}
	if v.ExMin == CheckAlways || v.ExMin == CheckCompare && n <= v.ExMinInt {
		d.Fail(invalid.ExclusiveMinimum, v.ExMinMessage)
	}
	if v.ExMax == CheckAlways || v.ExMax == CheckCompare && n >= v.ExMaxInt {
		d.Fail(invalid.ExclusiveMaximum, v.ExMaxMessage)
	}
	if v.Multiple == CheckAlways && n != 0 || v.Multiple == CheckCompare && n%v.MultipleInt != 0 {
		d.Fail(invalid.MultipleOf, v.MultipleMessage)
	}
	if v.HasEnum {
		found := false
		for _, e := range v.Ints {
			if n == e {
				found = true
				break
			}
		}
		if !found {
			d.Fail(v.EnumCode, v.EnumMessage)
			return
		}
	}
	storeInt(v, p, n)
}

func uintValue(d *Decoder, v *Value, p unsafe.Pointer) {
	n, ok := d.Uint(v.UMin, v.UMax)
	if !ok {
		return
	}
	if v.NotZero {
		NotZero(d, n)
	}
	if v.ExMin == CheckAlways || v.ExMin == CheckCompare && n <= v.ExMinUint {
		d.Fail(invalid.ExclusiveMinimum, v.ExMinMessage)
	}
	if v.ExMax == CheckAlways || v.ExMax == CheckCompare && n >= v.ExMaxUint {
		d.Fail(invalid.ExclusiveMaximum, v.ExMaxMessage)
	}
	if v.Multiple == CheckAlways && n != 0 || v.Multiple == CheckCompare && n%v.MultipleUint != 0 {
		d.Fail(invalid.MultipleOf, v.MultipleMessage)
	}
	if v.HasEnum {
		found := false
		for _, e := range v.Uints {
			if n == e {
				found = true
				break
			}
		}
		if !found {
			d.Fail(v.EnumCode, v.EnumMessage)
			return
		}
	}
	storeUint(v, p, n)
}

func floatValue(d *Decoder, v *Value, p unsafe.Pointer) {
	bits := 64
	if v.Size == 4 {
		bits = 32
	}
	f, ok := d.Float(bits)
	if !ok {
		return
	}
	if v.NotZero {
		NotZero(d, f)
	}
	if v.HasFMin && f < v.FMin {
		d.Fail(invalid.Minimum, v.FMinMsg)
	}
	if v.HasFMax && f > v.FMax {
		d.Fail(invalid.Maximum, v.FMaxMsg)
	}
	if v.HasFExMin && f <= v.FExMin {
		d.Fail(invalid.ExclusiveMinimum, v.FExMinMsg)
	}
	if v.HasFExMax && f >= v.FExMax {
		d.Fail(invalid.ExclusiveMaximum, v.FExMaxMsg)
	}
	if v.MultipleOf != "" {
		d.MultipleOf(v.MultipleOf)
	}
	if v.HasEnum {
		found := false
		for _, e := range v.Floats {
			if f == e {
				found = true
				break
			}
		}
		if !found {
			d.Fail(v.EnumCode, v.EnumMessage)
			return
		}
	}
	storeFloat(v, p, f)
}

func mapValue(d *Decoder, tables *Tables, v *Value, p unsafe.Pointer) {
	if !d.BeginObject() {
		return
	}
	v.Ops(OpMake, d, p, tables, v, 0, nil)
	for d.NextField() {
		key := d.FieldName()
		if v.Keys != nil {
			found := false
			for _, k := range v.Keys {
				if k == string(key) {
					found = true
					break
				}
			}
			if !found {
				d.Unknown(v.Keys...)
				continue
			}
		}
		if q, _ := v.Ops(OpHas, d, p, tables, v, 0, key); q != nil {
			d.Duplicate()
			continue
		}
		k := string(key)
		d.Enter(k)
		v.Ops(OpPut, d, p, tables, v, 0, key)
		d.Leave()
	}
	_, n := v.Ops(OpLen, d, p, tables, v, 0, nil)
	if v.HasMinItems {
		d.MinProperties(n, v.MinItems)
	}
	if v.HasMaxItems {
		d.MaxProperties(n, v.MaxItems)
	}
	if v.Unique != nil {
		v.Unique(d, p)
	}
}

// PointerOps is the Ops of a Value of type *T.
func PointerOps[T any](op Op, d *Decoder, p unsafe.Pointer, tables *Tables, v *Value, arg int, key []byte) (unsafe.Pointer, int) {
	return unsafe.Pointer(New((**T)(p))), 0
}

// SliceOps is the Ops of a Value of a slice type S.
func SliceOps[S ~[]E, E any](op Op, d *Decoder, p unsafe.Pointer, tables *Tables, v *Value, arg int, key []byte) (unsafe.Pointer, int) {
	s := (*S)(p)
	if op == OpMake {
		MakeSlice(s)
		return nil, 0
	}
	return unsafe.Pointer(Item(d, s, arg)), 0
}

// MapOps is the Ops of a Value of a map type M.
func MapOps[M ~map[K]V, K ~string, V any](op Op, d *Decoder, p unsafe.Pointer, tables *Tables, v *Value, arg int, key []byte) (unsafe.Pointer, int) {
	m := (*M)(p)
	switch op {
	case OpMake:
		MakeMap(m)
	case OpHas:
		if _, dup := (*m)[K(key)]; dup {
			return p, 0
		}
	case OpLen:
		return nil, len(*m)
	case OpPut:
		k := K(key)
		var x V
		value(d, tables, &tables.Values[v.Elem], unsafe.Pointer(&x), false)
		(*m)[k] = x
	}
	return nil, 0
}

// UniqueOps is the Unique of a Value of a slice type S (uniqueItems).
func UniqueOps[S ~[]E, E comparable](d *Decoder, p unsafe.Pointer) {
	Unique(d, *(*S)(p))
}

// UniqueValuesOps is the Unique of a Value of a map type M (validate's unique).
func UniqueValuesOps[M ~map[K]V, K ~string, V comparable](d *Decoder, p unsafe.Pointer) {
	UniqueValues(d, map[K]V(*(*M)(p)))
}

// patternCache holds a Value's pattern once compiled: nil when it does not compile
// (toolimpl.CompilePattern), which matches nothing, as Match says.
type patternCache struct {
	once sync.Once
	re   *regexp.Regexp
}

func (c *patternCache) get(src string) *regexp.Regexp {
	c.once.Do(func() { c.re, _ = CompilePattern(src) })
	return c.re
}
