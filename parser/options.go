package parser

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// option is one space-separated option of a directive line: key, or key=value.
type option struct {
	Key string
	// Value is the value, unquoted when it was written quoted.
	Value string
	// HasValue reports that the option had "=".
	HasValue bool
	// Off is the byte offset of the option (its key) in the text given to
	// splitOptions, plus the base offset.
	Off int
}

// offError is a problem at a byte offset of some text.
type offError struct {
	Off int
	Msg string
}

// splitOptions splits the options of a directive line. base is the byte offset of s
// in the comment, added to every offset returned. Values may be written in double
// quotes with Go string syntax; unquoted values run to the next space or tab.
// A malformed option is reported and skipped; the others are still returned.
func splitOptions(s string, base int) ([]option, []offError) {
	var opts []option
	var errs []offError
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return opts, errs
		}
		start := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '=' {
			i++
		}
		opt := option{Key: s[start:i], Off: base + start}
		if i < len(s) && s[i] == '=' {
			opt.HasValue = true
			i++
			if i < len(s) && s[i] == '"' {
				end, err := scanQuoted(s, i)
				if err != "" { // the rest of the line is inside the quotes
					errs = append(errs, offError{base + start, err})
					return opts, errs
				}
				v, uerr := strconv.Unquote(s[i:end])
				if uerr != nil {
					errs = append(errs, offError{base + start, fmt.Sprintf("malformed quoted value %s", s[i:end])})
					i = end
					for i < len(s) && !isSpace(s[i]) {
						i++
					}
					continue
				}
				if !utf8.ValidString(v) {
					errs = append(errs, offError{base + start, fmt.Sprintf("quoted value %s is not valid UTF-8: a schema, and the model, hold text only", s[i:end])})
					i = end
					for i < len(s) && !isSpace(s[i]) {
						i++
					}
					continue
				}
				opt.Value = v
				i = end
				if i < len(s) && !isSpace(s[i]) {
					errs = append(errs, offError{base + start, fmt.Sprintf("unexpected text %q after quoted value", tokenAt(s, i))})
					for i < len(s) && !isSpace(s[i]) {
						i++
					}
					continue
				}
			} else {
				vstart := i
				for i < len(s) && !isSpace(s[i]) {
					i++
				}
				opt.Value = s[vstart:i]
			}
		}
		if opt.Key == "" {
			errs = append(errs, offError{base + start, "missing option name before \"=\""})
			continue
		}
		opts = append(opts, opt)
	}
}

// scanQuoted finds the end (one past the closing quote) of the double-quoted string
// starting at s[i]. It returns an error message for an unterminated string.
func scanQuoted(s string, i int) (int, string) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, ""
		}
	}
	return 0, fmt.Sprintf("malformed quoted value %s: missing closing quote", s[i:])
}

// tokenAt returns the text from s[i] to the next space.
func tokenAt(s string, i int) string {
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return s[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// tagItem is one comma-separated item of a tool struct tag.
type tagItem struct {
	Key      string
	Value    string
	HasValue bool
	// Off is the byte offset of the item's key in the tag value.
	Off int
	// Text is the item as written between its commas, spaces included (a comma
	// written \, decoded).
	Text string
}

// splitTag splits a tool tag value at commas. A comma inside a value is written
// "\,"; every other backslash is kept as written, so "pattern=^\d+$" keeps its
// backslash. Empty items are reported.
func splitTag(s string) ([]tagItem, []offError) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var items []tagItem
	var errs []offError
	var cur strings.Builder
	start := 0
	flush := func(end int) {
		text := cur.String()
		raw := text
		cur.Reset()
		// Leading spaces are allowed ("required, minLength=1") and do not move the key.
		lead := len(text) - len(strings.TrimLeft(text, " "))
		text = text[lead:]
		off := start + lead
		if strings.TrimSpace(text) == "" {
			errs = append(errs, offError{start, "empty item in tool tag"})
			return
		}
		if !utf8.ValidString(text) {
			errs = append(errs, offError{off, fmt.Sprintf("item %q of tool tag is not valid UTF-8: a schema, and the model, hold text only", text)})
			return
		}
		it := tagItem{Off: off, Text: raw}
		if k, v, ok := strings.Cut(text, "="); ok {
			it.Key, it.Value, it.HasValue = strings.TrimRight(k, " "), v, true
		} else {
			it.Key = strings.TrimRight(text, " ")
		}
		if it.Key == "" {
			errs = append(errs, offError{off, "missing key before \"=\" in tool tag"})
			return
		}
		items = append(items, it)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			flush(i)
			start = i + 1
		default:
			cur.WriteByte(s[i])
		}
	}
	flush(len(s))
	return items, errs
}
