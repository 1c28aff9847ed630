package difftest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// Subject is one tool whose generated decoder is checked against the oracle. T is a Go
// type encoding/json decodes the tool's arguments into: the tool's own argument struct,
// or, for tools whose arguments are ordinary parameters, an exported equivalent of the
// generated argument struct with json tags.
type Subject[T any] struct {
	Tool        string
	InputSchema []byte
	// Decode runs the generated decoder on args as the dispatch does (a decoder with
	// the default limits, the generated decode function, Finish) and returns the value
	// it decoded (as a T), its violations and whether it accepted the arguments.
	Decode func(args []byte) (v T, violations []invalid.Violation, ok bool)
	// Invariant, when set, must hold for every value Decode returns, accepted or not.
	Invariant func(v T) error
}

// Outcome is the result of one differential check.
type Outcome struct {
	Verdict    Verdict             // the oracle's
	Accept     bool                // the decoder's verdict
	Violations []invalid.Violation // the decoder's
}

// Check decodes args with the generated decoder and with the oracle and reports, on
// t, every difference: a panic, an accept/reject disagreement, a value that differs
// from encoding/json's, a rejection without violations, a violation whose path names
// nothing, a broken invariant, and a decoding whose cost breaks the bounds of
// CheckCost.
func Check[T any](t testing.TB, s Subject[T], args []byte) Outcome {
	t.Helper()
	o, err := For(s.Tool, s.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var got T
	var viols []invalid.Violation
	var ok bool
	var panicked string
	CheckCost(t, s.Tool, args, func() {
		got, viols, ok, panicked = decode(s, args)
		if !ok {
			_ = (&invalid.ArgumentError{Tool: s.Tool, Violations: viols}).Error() // the model's text
		}
	})
	if panicked != "" {
		t.Fatalf("%s: decoder panicked on %s:\n%s", s.Tool, Quote(args), panicked)
	}
	out := Outcome{Accept: ok, Violations: viols}
	out.Verdict = o.Judge(args, unmarshalInto[T])
	if s.Invariant != nil {
		if err := s.Invariant(got); err != nil {
			t.Errorf("%s: %s: decoded value breaks an invariant: %v", s.Tool, Quote(args), err)
		}
	}
	if ok != (len(viols) == 0) {
		t.Errorf("%s: %s: decoder says ok=%v with violations %v", s.Tool, Quote(args), ok, viols)
	}
	if !ok {
		for _, v := range viols {
			if !o.PathExists(v.Path, out.Verdict, args) {
				t.Errorf("%s: %s: violation %q has a path that is neither in the input nor in the schema", s.Tool, Quote(args), v.String())
			}
		}
	}
	if ok != out.Verdict.Accept() {
		t.Errorf("%s: accept/reject disagreement\n  input:   %s\n  oracle:  %v\n  decoder: %s", s.Tool, Quote(args), out.Verdict, decoderVerdict(ok, viols))
		return out
	}
	if ok {
		var want T
		if err := json.Unmarshal(out.Verdict.GoJSON, &want); err != nil {
			t.Fatalf("%s: %s: encoding/json fails on what the oracle accepted: %v", s.Tool, Quote(args), err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: value mismatch\n  input:         %s\n  normalized:    %s\n  decoder:       %#v\n  encoding/json: %#v", s.Tool, Quote(args), out.Verdict.Normalized.JSON(), got, want)
		}
	}
	return out
}

func decode[T any](s Subject[T], args []byte) (v T, viols []invalid.Violation, ok bool, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
	}()
	v, viols, ok = s.Decode(args)
	return v, viols, ok, ""
}

func unmarshalInto[T any](b []byte) error {
	var v T
	return json.Unmarshal(b, &v)
}

func decoderVerdict(ok bool, viols []invalid.Violation) string {
	if ok {
		return "accept"
	}
	var parts []string
	for _, v := range viols {
		parts = append(parts, fmt.Sprintf("[%s] %s", v.Code, v.String()))
	}
	return "reject: " + strings.Join(parts, "; ")
}

// Quote shows arguments in a failure message: as a Go string, cut when long.
func Quote(args []byte) string {
	const max = 300
	if len(args) > max {
		return fmt.Sprintf("%q… (%d bytes)", args[:max], len(args))
	}
	return fmt.Sprintf("%q", args)
}

// RunCorpus checks every case of a corpus, each as a subtest: the oracle's verdict
// against the case's expectation, then the decoder against the oracle (Check).
func RunCorpus[T any](t *testing.T, s Subject[T], cases []Case) {
	t.Helper()
	o, err := For(s.Tool, s.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Fatalf("%s: two cases are named %q", s.Tool, c.Name)
		}
		names[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			args := []byte(c.Args)
			if c.Want != Either {
				v := o.Judge(args, unmarshalInto[T])
				if v.Accept() != (c.Want == Accept) {
					t.Errorf("oracle: %s: %v, want %s", Quote(args), v, map[Want]string{Accept: "accept", Reject: "reject"}[c.Want])
				}
			}
			Check(t, s, args)
		})
	}
}
