package gemini

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// FuzzStream feeds the same chunks to a Stream and to referenceStream, the
// accumulator as it was before it read each chunk in one pass, and checks that they
// answer alike: each Add's error, Text and Done, then Response and Calls. The input
// is a choice of limit and either chunks, one a line, or the bytes that drive
// genChunk, which writes chunks of the shapes a Stream reads, repeated keys, keys
// that differ in case or are escaped, values of the wrong type, nulls and white
// space included.
func FuzzStream(f *testing.F) {
	f.Add(byte(0), []byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"a"},{"text":"b","thought":true}]}}]}
{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args": {"x" : 1}}},{"text":""}]},"finishReason":"STOP"}],"usageMetadata":{"totalTokenCount":3}}`))
	f.Add(byte(9), []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"s":"xxxxxxxxxxxxxx"}}}]}}]}`))
	f.Add(byte(0), []byte(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`))
	f.Add(byte(0), []byte(`{"candidates":[{"content":{"parts":[{"Text":"a","TEXT":"b","text":"","text":null}]},"finishReason":"ST\u004fP"}],"k\u0031":1,"k1":null}`))
	f.Add(byte(0), []byte("{\"candidates\":[{\"content\":{\"parts\":[{\"te\\u0078t\":\"\"},{\"functionCall\":{\"name\":\"f\",\"arg\u017f\":{}}}]}}],\"candidates\":null}\n{\"candidates\":[{\"finishReason\":\"STOP\"}]}"))
	f.Add(byte(1), []byte("generated chunks \x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\xf0\xe1\xd2\xc3\xb4\xa5\x96\x87"))
	f.Add(byte(3), bytes.Repeat([]byte{7, 200, 13, 2, 99, 41, 5, 180, 66, 1}, 20))
	f.Fuzz(func(t *testing.T, mode byte, in []byte) {
		var chunks [][]byte
		if mode%2 == 0 {
			chunks = bytes.Split(in, []byte("\n"))
		} else {
			g := &gen{b: in}
			for n := 1 + g.n(6); n > 0 && len(g.b) > 0; n-- {
				chunks = append(chunks, []byte(g.chunk()))
			}
		}
		limit := int(mode / 2 % 64) // 0: the default
		checkSameStream(t, chunks, limit)
	})
}

// checkSameStream feeds chunks to a Stream and a referenceStream with the limit on
// args and fails unless they answer alike.
func checkSameStream(t *testing.T, chunks [][]byte, limit int) {
	t.Helper()
	s := Stream{Limits: Limits{MaxArgumentBytes: limit}}
	ref := referenceStream{Limits: Limits{MaxArgumentBytes: limit}}
	for i, c := range chunks {
		data := bytes.Clone(c)
		err, refErr := s.Add(nil, data), ref.Add(nil, bytes.Clone(c))
		for j := range data {
			data[j] = 'X' // the Stream keeps no part of data
		}
		if errText(err) != errText(refErr) {
			t.Fatalf("chunk %d %s: Add = %v, reference %v", i, c, err, refErr)
		}
		if s.Text() != ref.Text() || s.Done() != ref.Done() {
			t.Fatalf("chunk %d %s: Text, Done = %q, %v; reference %q, %v", i, c, s.Text(), s.Done(), ref.Text(), ref.Done())
		}
	}
	body, err := s.Response()
	refBody, refErr := ref.Response()
	if !bytes.Equal(body, refBody) || errText(err) != errText(refErr) {
		t.Fatalf("chunks %q: Response =\n%s, %v\nreference\n%s, %v", chunks, body, err, refBody, refErr)
	}
	calls, err := s.Calls()
	refCalls, refErr := ref.Calls()
	if !reflect.DeepEqual(calls, refCalls) || errText(err) != errText(refErr) {
		t.Fatalf("chunks %q: Calls = %v, %v; reference %v, %v", chunks, calls, err, refCalls, refErr)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestStreamSameAsReference checks chunks of every shape genChunk writes, from a
// fixed sequence of choices, against referenceStream.
func TestStreamSameAsReference(t *testing.T) {
	for seed := range 3000 {
		var b []byte
		x := uint32(seed)*2654435761 + 1
		for range 600 {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b = append(b, byte(x))
		}
		g := &gen{b: b}
		var chunks [][]byte
		for n := 1 + g.n(6); n > 0; n-- {
			chunks = append(chunks, []byte(g.chunk()))
		}
		checkSameStream(t, chunks, seed%3*7)
	}
}

// gen writes JSON chunks from the choices in b; past its end, it chooses 0.
type gen struct{ b []byte }

func (g *gen) n(k int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0])
	g.b = g.b[1:]
	return c % k
}

func (g *gen) pick(s ...string) string { return s[g.n(len(s))] }

func (g *gen) ws() string { return g.pick("", "", "", "", "", "", " ", "\n\t ") }

// object writes an object of up to max members, each from member.
func (g *gen) object(max int, member func() string) string {
	var b strings.Builder
	b.WriteString("{" + g.ws())
	for i := range g.n(max + 1) {
		if i > 0 {
			b.WriteString("," + g.ws())
		}
		b.WriteString(member() + g.ws())
	}
	return b.String() + "}"
}

func (g *gen) array(max int, item func() string) string {
	var b strings.Builder
	b.WriteString("[" + g.ws())
	for i := range g.n(max + 1) {
		if i > 0 {
			b.WriteString("," + g.ws())
		}
		b.WriteString(item() + g.ws())
	}
	return b.String() + "]"
}

// key writes one of keys, or a variant: in another case, escaped, or another key.
func (g *gen) key(keys ...string) string {
	k := keys[g.n(len(keys))]
	switch g.n(40) {
	case 0:
		return strings.ToUpper(k[:1]) + k[1:]
	case 1:
		return strings.ToUpper(k)
	case 2:
		return `\u00` + fmt.Sprintf("%x", k[0]) + k[1:]
	case 3:
		return g.pick("k1", "other", "", "\u017f", "\u212a", "é", "args\u017f")
	case 4:
		return strings.ReplaceAll(k, "s", "\u017f")
	}
	return k
}

func (g *gen) rawkv(key, value string) string {
	return `"` + key + `"` + g.ws() + ":" + g.ws() + value
}

func (g *gen) scalar() string {
	return g.pick("null", "1", "-2.5e3", "true", "false", `""`, `"x"`, `"a\"b"`, `"\u00e9\n"`, `"\ud800"`, "\"\xff\"", "[]", "{}", `[1,{"a":[2]}]`, `{"x" : { "y" : [ ] } }`)
}

func (g *gen) chunk() string {
	switch g.n(48) {
	case 47:
		return g.scalar()
	case 46:
		return `{"candidates":` + g.pick("", "[", "[1]", `[{"content":[]}]`, `[{"content":{"parts":{}}}]`)
	}
	return g.object(5, func() string {
		switch n := g.n(24); {
		case n < 14:
			return g.rawkv(g.key("candidates"), g.candidates())
		case n == 14:
			return g.rawkv(g.key("error"), g.pick("null", `{"message":"m"}`, `{"code":1,"message":"m","status":"S"}`, `"bad"`, `{}`))
		case n < 19:
			return g.rawkv(g.key("usageMetadata", "modelVersion", "promptFeedback"), g.pick(`{"totalTokenCount":1}`, `"v"`, `{"blockReason":"SAFETY"}`, g.scalar()))
		}
		return g.rawkv(g.key("k1", "k2", "responseId"), g.scalar())
	})
}

func (g *gen) candidates() string {
	switch g.n(24) {
	case 23:
		return g.scalar()
	case 22:
		return "[]"
	}
	return g.array(2, func() string {
		if g.n(24) == 23 {
			return g.scalar()
		}
		return g.object(4, func() string {
			switch g.n(6) {
			case 0, 1, 2:
				return g.rawkv(g.key("content"), g.content())
			case 3, 4:
				return g.rawkv(g.key("finishReason"), g.pick(`"STOP"`, `"STOP"`, `"STOP"`, `""`, `"FINISH_REASON_UNSPECIFIED"`, `"MAX_TOKENS"`, `"MALFORMED_FUNCTION_CALL"`, `"ST\u004fP"`, "null", "5"))
			}
			return g.rawkv(g.key("index", "finishMessage", "safetyRatings"), g.scalar())
		})
	})
}

func (g *gen) content() string {
	if g.n(24) == 23 {
		return g.scalar()
	}
	return g.object(3, func() string {
		switch g.n(5) {
		case 0, 1, 2:
			if g.n(24) == 23 {
				return g.rawkv(g.key("parts"), g.scalar())
			}
			return g.rawkv(g.key("parts"), g.array(5, g.part))
		}
		return g.rawkv(g.key("role"), g.pick(`"model"`, `"user"`, "null", "1"))
	})
}

func (g *gen) part() string {
	if g.n(10) == 9 {
		return g.scalar()
	}
	return g.object(3, func() string {
		switch g.n(8) {
		case 0, 1, 2:
			return g.rawkv(g.key("text"), g.pick(`""`, `""`, `"x"`, `"a\u00e9\n"`, `"\ud83d\ude00"`, "\"\xc3(\"", "null", "5", "{}"))
		case 3:
			return g.rawkv(g.key("thought"), g.pick("true", "false", "null", `"yes"`))
		case 4:
			return g.rawkv(g.key("thoughtSignature"), `"c2ln"`)
		}
		return g.rawkv(g.key("functionCall"), g.call())
	})
}

func (g *gen) call() string {
	if g.n(8) == 7 {
		return g.scalar()
	}
	if g.n(3) == 0 {
		return fmt.Sprintf(`{"id":"%d","name":"f","args":{"i" : %d}}`, g.n(4), g.n(100))
	}
	return g.object(4, func() string {
		switch g.n(6) {
		case 0, 1:
			return g.rawkv(g.key("name"), g.pick(`"f"`, `"g"`, `"h"`, `"f\u0068"`, "null", "5", `""`))
		case 2, 3:
			return g.rawkv(g.key("args"), g.pick(`{}`, `{"a":1}`, `{ "s" : "xxxxxxxxxxxxxxxxxxxxxxxx" }`, "{\n\"s\":\t\"xxxxxxxxxxxxxxxx\"  }", "null", `[1, 2]`, `"s"`))
		case 4:
			return g.rawkv(g.key("id"), g.pick(`"a"`, `"b"`, "null", "1"))
		}
		return g.rawkv(g.key("partialArgs", "willContinue"), g.pick("null", "true", "false", "[]"))
	})
}
