package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/invalid"
)

// Modes is one tool's decoder in both of toolgen's modes: the specialised code of
// toolgen.gen.go and the tables of table-driven decoding (generator.TableTwin's file).
type Modes[T any] struct {
	Specialised, Table Subject[T]
}

// Same decodes args with both modes and reports, on t, any difference between them:
// in the value decoded, the verdict, or the violations (code, path and message, in
// order), and a panic of either. It returns the specialised decoder's verdict.
func Same[T any](t testing.TB, m Modes[T], args []byte) bool {
	t.Helper()
	v1, viols1, ok1, p1 := decode(m.Specialised, args)
	v2, viols2, ok2, p2 := decode(m.Table, args)
	if p1 != "" || p2 != "" {
		t.Fatalf("%s: %s: panicked: specialised %q, table %q", m.Specialised.Tool, Quote(args), p1, p2)
	}
	if ok1 != ok2 {
		t.Errorf("%s: %s: specialised %s, table %s", m.Specialised.Tool, Quote(args), decoderVerdict(ok1, viols1), decoderVerdict(ok2, viols2))
		return ok1
	}
	if !reflect.DeepEqual(viols1, viols2) {
		t.Errorf("%s: %s: violations differ:\nspecialised %s\ntable       %s", m.Specialised.Tool, Quote(args), violationsText(viols1), violationsText(viols2))
	}
	if !reflect.DeepEqual(v1, v2) {
		t.Errorf("%s: %s: values differ:\nspecialised %#v\ntable       %#v", m.Specialised.Tool, Quote(args), v1, v2)
	}
	return ok1
}

func violationsText(viols []invalid.Violation) string {
	s := ""
	for _, v := range viols {
		s += fmt.Sprintf("[%s] %s; ", v.Code, v.String())
	}
	return s
}

// RunModes checks the two modes agree on every case of a corpus and on every seed
// of the fuzz corpus testdata/fuzz/<fuzz> (when the directory exists), each case as a
// subtest, and that the table mode agrees with the oracle too (Check).
func RunModes[T any](t *testing.T, m Modes[T], cases []Case, fuzz string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			Same(t, m, []byte(c.Args))
			Check(t, m.Table, []byte(c.Args))
		})
	}
	dir := filepath.Join("testdata", "fuzz", fuzz)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return
		}
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		args, err := ReadSeed(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		Same(t, m, args)
		n++
	}
	t.Logf("%s: %d cases and %d seeds of %s decoded the same by both modes", m.Specialised.Tool, len(cases), n, dir)
}

// ReadSeed reads the []byte argument of a seed file of the fuzz corpus format that
// WriteSeeds and go test write ("go test fuzz v1", then []byte("...")).
func ReadSeed(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(string(b))
	header, rest, ok := strings.Cut(text, "\n")
	if !ok || header != "go test fuzz v1" {
		return nil, fmt.Errorf("%s: not a fuzz corpus file", path)
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "[]byte(") || !strings.HasSuffix(rest, ")") {
		return nil, fmt.Errorf("%s: not one []byte value", path)
	}
	s, err := strconv.Unquote(rest[len("[]byte(") : len(rest)-1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return []byte(s), nil
}
