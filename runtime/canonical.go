package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"slices"
	"strings"
)

// maxCanonicalDepth is how deeply objects and arrays may nest in the arguments that
// canonicalJSON writes in their canonical form, as encoding/json's own limit.
const maxCanonicalDepth = 10000

// errNotCanonical is why canonicalJSON gives no canonical form: the text is no single
// JSON value, an object has a key twice, or the value nests too deeply.
var errNotCanonical = errors.New("no canonical form")

// canonicalJSON returns the canonical form of one JSON value: no spaces, the members of
// each object sorted by key (as json.Marshal sorts a map's), strings and keys with the
// fewest escapes (appendJSONString), and each number as canonicalNumber writes it: exactly
// its value, whatever its spelling, so that two texts have one form if and only if
// they are the same JSON value. An object with a key twice has no canonical form:
// readers differ on which of the two holds.
func canonicalJSON(text []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var out []byte
	out, err := canonicalValue(d, out, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errNotCanonical // more than one value
	}
	return out, nil
}

// canonicalValue appends the canonical form of the next value of d to out.
func canonicalValue(d *json.Decoder, out []byte, depth int) ([]byte, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, errNotCanonical
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxCanonicalDepth {
			return nil, errNotCanonical
		}
		if t == '[' {
			out = append(out, '[')
			for i := 0; d.More(); i++ {
				if i > 0 {
					out = append(out, ',')
				}
				if out, err = canonicalValue(d, out, depth+1); err != nil {
					return nil, err
				}
			}
			if _, err := d.Token(); err != nil {
				return nil, errNotCanonical
			}
			return append(out, ']'), nil
		}
		type member struct {
			key   string
			value []byte
		}
		var members []member
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, errNotCanonical
			}
			key, _ := k.(string)
			v, err := canonicalValue(d, nil, depth+1)
			if err != nil {
				return nil, err
			}
			members = append(members, member{key, v})
		}
		if _, err := d.Token(); err != nil {
			return nil, errNotCanonical
		}
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
		out = append(out, '{')
		for i, m := range members {
			if i > 0 {
				if m.key == members[i-1].key {
					return nil, errNotCanonical
				}
				out = append(out, ',')
			}
			out = appendJSONString(out, m.key)
			out = append(out, ':')
			out = append(out, m.value...)
		}
		return append(out, '}'), nil
	case string:
		return appendJSONString(out, t), nil
	case json.Number:
		return append(out, canonicalNumber(string(t))...), nil
	case bool:
		if t {
			return append(out, "true"...), nil
		}
		return append(out, "false"...), nil
	case nil:
		return append(out, "null"...), nil
	}
	return nil, errNotCanonical
}

// canonicalNumber returns the canonical text of a JSON number (one json.Valid
// accepts): its exact value, written as json.Marshal writes a float64 whose shortest
// digits those are: the digits without leading or trailing zeros, as a plain decimal
// when 1e-6 <= |n| < 1e21, else as d.ddde±x; 0 for any zero. So 1, 1.0, 10e-1 and
// 0.1e1 are all 1, and 9007199254740993 stays itself where a float64 reads
// 9007199254740992. The exponent may have any number of digits.
func canonicalNumber(n string) string {
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(n), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	// The value is digits × 10^e, e = exp - len(frac) + the trailing zeros dropped.
	e := new(big.Int)
	if exp != "" {
		e.SetString(strings.TrimPrefix(exp, "+"), 10)
	}
	trimmed := strings.TrimRight(digits, "0")
	e.Add(e, big.NewInt(int64(len(digits)-len(trimmed)-len(frac))))
	digits = trimmed
	if digits == "" {
		return "0"
	}
	// sci is the exponent of the first digit: the value is d.ddd × 10^sci.
	sci := new(big.Int).Add(e, big.NewInt(int64(len(digits)-1)))
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if sci.Cmp(big.NewInt(-7)) > 0 && sci.Cmp(big.NewInt(21)) < 0 {
		point := len(digits) + int(e.Int64()) // where the decimal point goes
		switch {
		case point <= 0:
			b.WriteString("0." + strings.Repeat("0", -point) + digits)
		case point >= len(digits):
			b.WriteString(digits + strings.Repeat("0", point-len(digits)))
		default:
			b.WriteString(digits[:point] + "." + digits[point:])
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteString("." + digits[1:])
	}
	b.WriteByte('e')
	if sci.Sign() >= 0 {
		b.WriteByte('+')
	}
	b.WriteString(sci.String())
	return b.String()
}
