package generator

import (
	"bytes"
	"go/format"
	"testing"
)

// TestFastFormat checks renderFile's shortcut against go/format.Source: for every
// package of the parser's golden cases, generated table-driven, the file whose tables
// printArray prints is byte for byte the one go/format.Source makes of jennifer's text,
// and the shortcut is taken (printArray prints every table the goldens hold). The
// synthetic package of bench/internal/synth has its own test there
// (bench/internal/synth: TestGeneratedIsFormatted).
func TestFastFormat(t *testing.T) {
	fast := 0
	for _, c := range parserCases(t) {
		for _, pkg := range c.pkgs {
			schemas, err := buildSchemas(pkg)
			if err != nil || len(schemas.errors) > 0 {
				continue
			}
			f, g, err := goFileGen(pkg, schemas, Options{Decoders: DecodersTable})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, pkg.Path, err)
			}
			tables := g.bigTables()
			if len(tables) == 0 {
				continue
			}
			f.NoFormat = true
			var raw bytes.Buffer
			if err := f.Render(&raw); err != nil {
				t.Fatal(err)
			}
			want, err := format.Source(raw.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			got, ok := fastFormat(raw.Bytes(), tables)
			if !ok {
				t.Errorf("%s %s: fastFormat declined the tables %q", c.name, pkg.Path, tables)
				continue
			}
			fast++
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: fastFormat differs from go/format.Source:\n%s", c.name, pkg.Path, firstDiff(got, want))
			}
		}
	}
	if fast < 10 {
		t.Errorf("only %d packages with tables took the shortcut", fast)
	}
}

// TestPrintArray checks printArray on what go/printer spaces with care (binary
// operators by depth, unary operators, number literals, empty arrays) against
// go/format.Source, and that it declines what it does not print.
func TestPrintArray(t *testing.T) {
	for _, x := range []string{
		"[...]T{\n{A : 1,B : 2}, \n{C : unsafe.Offsetof (T {} . a) + unsafe.Offsetof (T {} . b . c)},\n}",
		"[...]T{\n{F : x | y,G : f (1 + 2,3 * 4),H : f (1 + 2 * 3),I : g (30 * time.Second)},\n{J : -5,K : 1E3,L : 0X1P4,M : []int64 {1,-2},N : map [string] *pkg.T {}},\n}",
		"[...]T{\n{O : a [i + 1],P : Ops [[] *T],Q : Ops2 [K,V],R : (a + b) * c,S : a - (-b),U : !ok,V : ^x,W : &T {}},\n}",
		"[...]toolimpl.Value{\n}",
		"[...]T{\n1,\n\"s\",\n`raw`,\n'c',\n2.5i,\n}",
	} {
		got, err := printArray([]byte(x), "v")
		if err != nil {
			t.Errorf("printArray(%q): %v", x, err)
			continue
		}
		want, err := format.Source([]byte("var v = " + x + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("printArray(%q) =\n%s\nwant (go/format)\n%s", x, got, want)
		}
	}
	for _, x := range []string{
		"[...]T{\n{A : 1}, // a comment\n}",
		"[...]T{\n{A : 1},{B : 2},\n}",
		"[...]T{\n{A :\n1},\n}",
		"[...]T{\n{A : func () {}},\n}",
		"[...]T{\n{A : - -1},\n}",
		"[...]T{\n{A : f (xs ...)},\n}",
		"[...]int{\n0 : 1,\n10 : 2,\n}", // gofmt aligns the values of keyed lines
		"[...]T{\n\"a\" : 1,\n}",
		"T",
	} {
		if got, err := printArray([]byte(x), "v"); err == nil {
			t.Errorf("printArray(%q) = %q, want it declined", x, got)
		}
	}
}

// firstDiff shows where two texts part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "got:  ..." + string(a[lo:min(len(a), i+200)]) + "\nwant: ..." + string(b[lo:min(len(b), i+200)])
}
