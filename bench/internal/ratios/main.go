// Command ratios reads Go benchmark results and prints Markdown tables of medians and
// of their ratios to a base, side by side: benchstat's tables give deltas in percent
// with confidence intervals, these give the "0.21x" that the targets are written in.
//
//	go run ./internal/ratios -col approach -base encoding_json results.txt
//	go run ./internal/ratios -col impl -base floor -unit calls/s mcphttp.txt
//
// Benchmarks are grouped by their name without the col key (BenchmarkDecode/payload=
// weather/approach=generated-2 is row "BenchmarkDecode/payload=weather", column
// "generated"); each cell is the median of every run of that benchmark.
//
// With -paired each file is one round, holding one run of every cell, and each cell is
// the median of its rounds' own ratios to the base, with their lowest and highest: a
// ratio taken within a round, of runs a few seconds apart, is not moved by the load
// changing from round to round, which moves the runs of every cell alike.
//
//	go run ./internal/ratios -paired -col impl -base floor -unit calls/s rounds/*.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	col := flag.String("col", "approach", "the name key whose values are the columns")
	base := flag.String("base", "encoding_json", `the column the ratios are to ("": no ratios)`)
	unit := flag.String("unit", "ns/op", "the unit of the medians and ratios: ns/op or a metric a benchmark reports, such as calls/s")
	paired := flag.Bool("paired", false, "each file is a round: the median, lowest and highest of the rounds' own ratios to base")
	flag.Parse()
	if *paired {
		var rounds []*table
		for _, name := range flag.Args() {
			f, err := os.Open(name)
			if err != nil {
				log.Fatal(err)
			}
			r := newTable()
			r.unit = *unit
			r.read(f, *col)
			f.Close()
			rounds = append(rounds, r)
		}
		printPaired(os.Stdout, rounds, *col, *base, *unit)
		return
	}
	t := newTable()
	t.unit = *unit
	if flag.NArg() == 0 {
		t.read(os.Stdin, *col)
	}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		t.read(f, *col)
		f.Close()
	}
	t.print(os.Stdout, *col, *base)
}

// table holds every measurement, by row and column.
type table struct {
	rows, cols []string
	ns, bytes  map[[2]string][]float64
	allocs     map[[2]string][]float64
	// unit is what ns holds: ns/op, or the values of another unit (a metric such as
	// calls/s, reported by b.ReportMetric).
	unit string
}

func newTable() *table {
	return &table{ns: map[[2]string][]float64{}, bytes: map[[2]string][]float64{}, allocs: map[[2]string][]float64{}}
}

var procSuffix = regexp.MustCompile(`-\d+$`)

func (t *table) read(r io.Reader, col string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := procSuffix.ReplaceAllString(fields[0], "")
		var row []string
		column := ""
		for i, part := range strings.Split(name, "/") {
			if k, v, ok := strings.Cut(part, "="); ok && i > 0 && k == col {
				column = v
				continue
			}
			row = append(row, part)
		}
		if column == "" {
			continue
		}
		key := [2]string{strings.Join(row, "/"), column}
		if !slices.Contains(t.rows, key[0]) {
			t.rows = append(t.rows, key[0])
		}
		if !slices.Contains(t.cols, column) {
			t.cols = append(t.cols, column)
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case t.unit:
				t.ns[key] = append(t.ns[key], v)
			case "B/op":
				t.bytes[key] = append(t.bytes[key], v)
			case "allocs/op":
				t.allocs[key] = append(t.allocs[key], v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

func median(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2], true
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2, true
}

func (t *table) print(w io.Writer, col, base string) {
	what, show := "time per operation", duration
	if t.unit != "ns/op" {
		what, show = t.unit, number
	}
	if base != "" {
		fmt.Fprintf(w, "Median %s, and its ratio to %s (n = runs per cell):\n\n", what, base)
	} else {
		fmt.Fprintf(w, "Median %s (n = runs per cell):\n\n", what)
	}
	header(w, col, t.cols)
	for _, row := range t.rows {
		fmt.Fprintf(w, "| %s |", row)
		b, hasBase := median(t.ns[[2]string{row, base}])
		for _, c := range t.cols {
			xs := t.ns[[2]string{row, c}]
			m, ok := median(xs)
			switch {
			case !ok:
				fmt.Fprint(w, " |")
			case hasBase && b > 0:
				fmt.Fprintf(w, " %s (%s, n=%d) |", show(m), ratio(m/b), len(xs))
			default:
				fmt.Fprintf(w, " %s (n=%d) |", show(m), len(xs))
			}
		}
		fmt.Fprintln(w)
	}
	if len(t.allocs) == 0 || t.unit != "ns/op" {
		return
	}
	fmt.Fprintf(w, "\nMedian allocations and bytes allocated per operation:\n\n")
	header(w, col, t.cols)
	for _, row := range t.rows {
		fmt.Fprintf(w, "| %s |", row)
		for _, c := range t.cols {
			a, ok1 := median(t.allocs[[2]string{row, c}])
			by, ok2 := median(t.bytes[[2]string{row, c}])
			if !ok1 || !ok2 {
				fmt.Fprint(w, " |")
				continue
			}
			fmt.Fprintf(w, " %.0f allocs, %s |", a, size(by))
		}
		fmt.Fprintln(w)
	}
}

func header(w io.Writer, col string, cols []string) {
	fmt.Fprintf(w, "| %s |", col)
	for _, c := range cols {
		fmt.Fprintf(w, " %s |", c)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "|---|")
	for range cols {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
}

func ratio(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0fx", r)
	case r >= 10:
		return fmt.Sprintf("%.1fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e4:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func size(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// number shows a metric's value: whole above a thousand, else four digits.
func number(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// printPaired prints, for each row and column, the median of the rounds' ratios of the
// cell to base, each round's ratio of its own runs (the median of each, when a round
// ran one more than once), and the lowest and highest of them.
func printPaired(w io.Writer, rounds []*table, col, base, unit string) {
	var rows, cols []string
	for _, r := range rounds {
		for _, row := range r.rows {
			if !slices.Contains(rows, row) {
				rows = append(rows, row)
			}
		}
		for _, c := range r.cols {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	fmt.Fprintf(w, "%s: the median of the rounds' own ratios to %s [lowest, highest] (n = rounds):\n\n", unit, base)
	header(w, col, cols)
	for _, row := range rows {
		fmt.Fprintf(w, "| %s |", row)
		for _, c := range cols {
			var rs []float64
			for _, r := range rounds {
				b, ok1 := median(r.ns[[2]string{row, base}])
				v, ok2 := median(r.ns[[2]string{row, c}])
				if ok1 && ok2 && b > 0 {
					rs = append(rs, v/b)
				}
			}
			m, ok := median(rs)
			if !ok {
				fmt.Fprint(w, " |")
				continue
			}
			fmt.Fprintf(w, " %s [%s, %s] (n=%d) |", ratio(m), ratio(slices.Min(rs)), ratio(slices.Max(rs)), len(rs))
		}
		fmt.Fprintln(w)
	}
}
