package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/safetext"
)

const listLong = `List prints the catalog of the packages' tools (default "."), one tool per line,
sorted by package and name: the package, the tool name, its groups, its effective
annotations and an estimate of the tokens its definition costs with each provider,
then a total line.

The annotations are the MCP hints with MCP's defaults applied to the absent ones, as a
conservative client reads them: ro (read-only), destructive, idem (idempotent) and
open-world; "-" for none. An unannotated tool reads as destructive,open-world.

The token estimate is computed from the exact JSON of the tool's definition that the
provider gets, as compact JSON: its element of toolschema/openai.json (Chat Completions),
anthropic.json, gemini.json and mcp.json. The heuristic is one token per 4 bytes,
rounded up (bytes/4); real counts vary by model, and providers add a fixed overhead
per request that the estimate leaves out.

-json prints the same as a JSON object, with the exact byte counts beside the
estimates. list generates in memory and writes no files; it prints errors in the source
as generate does, but no warnings (toolgen check prints them).`

// listFlags are the flags of list.
type listFlags struct {
	tags []string
	json bool
}

func newListCommand(stdout, stderr io.Writer) *cobra.Command {
	var flags listFlags
	cmd := &cobra.Command{
		Use:   "list [packages]",
		Short: "Print the tools: package, name, groups, annotations and estimated tokens per provider",
		Long:  listLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			gens, _, err := generateAll(args, flags.tags, stderr, nil)
			if err != nil {
				return err
			}
			cat, err := buildCatalog(gens)
			if err != nil {
				return err
			}
			if flags.json {
				data, err := json.MarshalIndent(cat, "", "  ")
				if err != nil {
					return err
				}
				_, err = stdout.Write(append(data, '\n'))
				return err
			}
			_, err = io.WriteString(stdout, cat.table())
			return err
		},
	}
	registerTags(cmd, &flags.tags)
	cmd.Flags().BoolVar(&flags.json, "json", false, "print the catalog as JSON")
	return cmd
}

// catalog is what list prints.
type catalog struct {
	Tools []catalogTool `json:"tools"`
	Total catalogTotal  `json:"total"`
}

type catalogTool struct {
	// Package is the tool's package import path; Dir, its directory relative to where
	// toolgen runs.
	Package     string             `json:"package"`
	Dir         string             `json:"dir"`
	Name        string             `json:"name"`
	Groups      []string           `json:"groups"`
	Annotations catalogAnnotations `json:"annotations"`
	Tokens      perProvider        `json:"tokens"`
	Bytes       perProvider        `json:"bytes"`
}

type catalogTotal struct {
	Tools  int         `json:"tools"`
	Tokens perProvider `json:"tokens"`
	Bytes  perProvider `json:"bytes"`
}

// catalogAnnotations are the effective annotations, MCP's defaults applied.
type catalogAnnotations struct {
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"openWorld"`
}

// perProvider holds a number per provider, in the order of generator.Providers.
type perProvider struct {
	OpenAI    int `json:"openai"`
	Anthropic int `json:"anthropic"`
	Gemini    int `json:"gemini"`
	MCP       int `json:"mcp"`
}

func (p perProvider) list() []int { return []int{p.OpenAI, p.Anthropic, p.Gemini, p.MCP} }

func (p *perProvider) add(q perProvider) {
	p.OpenAI += q.OpenAI
	p.Anthropic += q.Anthropic
	p.Gemini += q.Gemini
	p.MCP += q.MCP
}

// toPerProvider maps numbers in the order of generator.Providers.
func toPerProvider(ns []int) (perProvider, error) {
	var p perProvider
	fields := map[string]*int{"openai": &p.OpenAI, "anthropic": &p.Anthropic, "gemini": &p.Gemini, "mcp": &p.MCP}
	if len(ns) != len(generator.Providers) {
		return p, fmt.Errorf("%d numbers for %d providers", len(ns), len(generator.Providers))
	}
	for i, prov := range generator.Providers {
		f, ok := fields[prov.Name]
		if !ok {
			return p, fmt.Errorf("no catalog column for provider %s", prov.Name)
		}
		*f = ns[i]
	}
	return p, nil
}

// buildCatalog measures the tools of the generated packages, sorted by package path
// and tool name.
func buildCatalog(gens []generated) (*catalog, error) {
	cat := &catalog{Tools: []catalogTool{}}
	for _, g := range gens {
		if len(g.pkg.Tools) == 0 {
			continue
		}
		entries, err := generator.Catalog(g.pkg, g.files)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			t, err := newCatalogTool(g.pkg, e)
			if err != nil {
				return nil, err
			}
			cat.Tools = append(cat.Tools, t)
			cat.Total.Tools++
			cat.Total.Tokens.add(t.Tokens)
			cat.Total.Bytes.add(t.Bytes)
		}
	}
	// The parser returns packages sorted by path, and each package's tools by name.
	return cat, nil
}

func newCatalogTool(pkg *model.Package, e generator.CatalogEntry) (catalogTool, error) {
	t := e.Tool
	a := runtime.Annotations{
		ReadOnly:    t.Annotations.ReadOnly,
		Destructive: t.Annotations.Destructive,
		Idempotent:  t.Annotations.Idempotent,
		OpenWorld:   t.Annotations.OpenWorld,
	}
	eff := a.Effective()
	out := catalogTool{
		Package: pkg.Path,
		Dir:     pkg.Dir,
		Name:    t.Name,
		Groups:  append([]string{}, t.Groups...),
		Annotations: catalogAnnotations{
			ReadOnly: eff.ReadOnly, Destructive: eff.Destructive, Idempotent: eff.Idempotent, OpenWorld: eff.OpenWorld,
		},
	}
	var err error
	if out.Tokens, err = toPerProvider(e.Tokens()); err != nil {
		return out, err
	}
	if out.Bytes, err = toPerProvider(e.Bytes); err != nil {
		return out, err
	}
	return out, nil
}

// hints is the short form of the effective annotations: "ro,idem", "destructive,open-world".
func (a catalogAnnotations) hints() string {
	var parts []string
	if a.ReadOnly {
		parts = append(parts, "ro")
	}
	if a.Destructive {
		parts = append(parts, "destructive")
	}
	if a.Idempotent {
		parts = append(parts, "idem")
	}
	if a.OpenWorld {
		parts = append(parts, "open-world")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

// table renders the catalog as an aligned table: text columns to the left, numbers
// to the right, two spaces between columns, no trailing spaces.
func (c *catalog) table() string {
	header := []string{"PACKAGE", "TOOL", "GROUPS", "ANNOTATIONS"}
	for _, p := range generator.Providers {
		header = append(header, strings.ToUpper(p.Name))
	}
	numeric := len(header) - len(generator.Providers) // the first numeric column
	rows := [][]string{header}
	for _, t := range c.Tools {
		groups := strings.Join(t.Groups, ",")
		if groups == "" {
			groups = "-"
		}
		row := []string{safetext.Field(t.Package), safetext.Field(t.Name), safetext.Line(groups), t.Annotations.hints()}
		for _, n := range t.Tokens.list() {
			row = append(row, strconv.Itoa(n))
		}
		rows = append(rows, row)
	}
	total := []string{"total", fmt.Sprintf("%d %s", c.Total.Tools, plural(c.Total.Tools, "tool", "tools")), "", ""}
	for _, n := range c.Total.Tokens.list() {
		total = append(total, strconv.Itoa(n))
	}
	rows = append(rows, total)

	widths := make([]int, len(header))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var sb strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i >= numeric {
				line.WriteString(pad + cell)
			} else {
				line.WriteString(cell + pad)
			}
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}
