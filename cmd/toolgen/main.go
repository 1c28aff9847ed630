// Command toolgen turns annotated Go functions into LLM tools: JSON Schemas per
// provider dialect, reflection-free argument decoders and a dispatch table.
//
// Usage:
//
//	toolgen generate [-tags list] [-strict|-warnings=false] [packages]   write the generated files (default ".")
//	toolgen check [-tags list] [-strict|-warnings=false] [packages]      exit 1 with a diff if any file is missing, stale or orphaned
//	toolgen list [-tags list] [-json] [packages]         print the tools, their hints and estimated token costs
//	toolgen diff [-base REV] [-json] [packages]          classify the contract changes since a git revision (default HEAD); exit 1 if any is breaking
//	toolgen version                                      print the version
//
// Add it to a module once, as a tool (so go mod tidy keeps its requirements):
//
//	go get -tool github.com/toolgen/toolgen/cmd/toolgen
//
// and in each package with tools:
//
//	//go:generate go tool toolgen generate
//
// Errors are printed as file:line:col: message, all of them, sorted; toolgen then exits
// with status 1 and writes nothing. Usage errors exit with status 2. Warnings, such as a
// tool a provider's strict mode cannot take or a property without a description (see
// generator.Lint), are printed as file:line:col: warning: message, sorted; they change
// neither the files written nor the exit status. With -strict, generate and check treat
// them as errors: printed as file:line:col: message, exit status 1, nothing written.
// With -warnings=false, they report errors alone (a CI gate for a package whose
// warnings are not all mended yet); -strict with it is a usage error.
//
// Messages that say what to run name the command as it was run: "go tool toolgen"
// when the go command started it (go tool, go generate's go tool line, go run),
// "toolgen" otherwise.
//
// # Package options
//
// A //toolgen:package line in the doc comment of a package clause (in any one file of
// the package) sets options for the whole package, space-separated like those of
// //toolgen:tool:
//
//	// Package bank serves accounts.
//	//
//	//toolgen:package tools=AllTools typetools=*Toolset descriptions=verbatim
//	package bank
//
//	tools=NAME           the constructor of the package-level tools (default Tools);
//	                     an exported Go identifier
//	typetools=PATTERN    the constructors of the tools of a receiver type's methods, *
//	                     standing for the type's name (default *Tools: ServiceTools)
//	descriptions=MODE    trim (the default) or verbatim, see below
//	schema=2020-12       start the root of every tool's inputSchema and outputSchema
//	                     with "$schema": "https://json-schema.org/draft/2020-12/schema"
//	                     (default: no "$schema"; the provider files never get it)
//
// The generated file declares those constructors and helpers whose names start with
// "toolgen" and an upper-case letter (toolgenTools, toolgenDispatch, ...). A declaration
// of the package's own with one of those names is an error at the declaration; rename
// it, or the constructor. Uses of those names are not errors while toolgen.gen.go is
// missing or stale, so a package that calls its own Tools() regenerates from scratch.
// A package that declares json, context, runtime, math or time itself gets a generated
// file that imports those packages under names of its own.
//
// Descriptions are the doc comments, written for a model, which knows a tool by its
// tool name and a property by its JSON name: a comment whose first word is exactly the
// Go identifier, followed by "is", "are" or a verb ending in s, loses that word (and the
// "is" or "are"), and the next word is capitalized. "GetWeather returns the forecast"
// becomes "Returns the forecast", "City is the city to forecast" "The city to
// forecast"; "City to forecast" stays as it is. descriptions=verbatim keeps every doc
// comment as written.
//
// Nothing is ignored without a word: a comment that is almost a directive (a space
// after //, a capital, one typo, a /* */ comment) is an error, since ignored it would
// remove a tool; the jsonschema, binding and validate tags of other libraries on a
// tool's fields, which toolgen does not read, are warnings; a struct tag that
// reflect.StructTag cannot read (as go vet's structtag check rejects it, such as
// tool:"pattern=^\d+$" with its backslash not doubled) is an error. generate prints
// each tool it removes (a toolschema/<tool>.json file no function marks any more) on
// standard error.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	rdebug "runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolgen/toolgen/generator"
	"github.com/toolgen/toolgen/internal/contractdiff"
	"github.com/toolgen/toolgen/internal/output"
	"github.com/toolgen/toolgen/model"
	"github.com/toolgen/toolgen/parser"
	"github.com/toolgen/toolgen/runtime/safetext"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

func main() {
	setGC(os.LookupEnv)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent is the garbage collector's target toolgen runs with unless GOGC is set:
// four times the heap's growth the default allows. A run is short and its heap is
// mostly the generated text, so a larger target trades memory for fewer collections:
// at 5,000 tools, 1.1-1.5 s less CPU for about 1.3 GB at the peak instead of 0.93 GB
// (bench/results/2026-12-03/gen5).
const gcPercent = 400

// setGC sets the garbage collector's target to gcPercent unless the environment
// (lookup is os.LookupEnv) sets GOGC, which the Go runtime has then applied. It
// returns the target it set, or -1 when it left the runtime's alone.
func setGC(lookup func(string) (string, bool)) int {
	if _, ok := lookup("GOGC"); ok {
		return -1
	}
	rdebug.SetGCPercent(gcPercent)
	return gcPercent
}

// commandName is the command a user runs toolgen by, for the messages that tell them
// what to run: "go tool toolgen" when the go command built and started it (go tool, or
// go run, from the build cache or from its temporary work directory), "toolgen"
// otherwise. argv0 is os.Args[0].
func commandName(argv0 string) string {
	// Both separators: the path is the go command's, on whichever system.
	if builtByGo(strings.ReplaceAll(argv0, `\`, "/")) {
		return "go tool toolgen"
	}
	return "toolgen"
}

// builtByGo reports whether name (slash-separated) is where the go command puts an executable it
// runs: <GOCACHE>/xx/<64 hex digits>-d/NAME for a cached one (since Go 1.24), or
// <TMP>/go-buildN/bN/exe/NAME on the run that builds it.
func builtByGo(name string) bool {
	dir := path.Dir(name)
	parent, grand := path.Base(dir), path.Base(path.Dir(dir))
	if hex, ok := strings.CutSuffix(parent, "-d"); ok {
		return len(grand) == 2 && isHex(grand) && len(hex) == 64 && isHex(hex)
	}
	great := path.Base(path.Dir(path.Dir(dir)))
	return parent == "exe" && digitsAfter(grand, "b") && digitsAfter(great, "go-build")
}

func isHex(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdef") == ""
}

// digitsAfter reports whether s is prefix followed by one or more digits.
func digitsAfter(s, prefix string) bool {
	n, ok := strings.CutPrefix(s, prefix)
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // errors in the source, or check found differences
	exitUsage = 2
)

// usageError marks errors in how toolgen was called.
type usageError struct{ error }

// failure marks a failure already reported to the user.
var errReported = errors.New("reported")

// run runs toolgen with args and returns its exit code. Its messages name the
// command as os.Args[0] says it was run (see commandName).
func run(args []string, stdout, stderr io.Writer) int {
	name := commandName(os.Args[0])
	var prof profiler
	root := newRootCommand(name, stdout, stderr)
	prof.register(root)
	root.SetArgs(goFlagSpelling(args))
	err := root.Execute()
	if perr := prof.stop(); err == nil {
		err = perr
	}
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errReported):
		return exitFail
	case errors.As(err, &ue) || isCobraUsageError(err):
		fmt.Fprintf(stderr, "toolgen: %s\nRun '%s --help' for usage.\n", safetext.Line(err.Error()), name)
		return exitUsage
	}
	fmt.Fprintf(stderr, "toolgen: %s\n", safetext.Line(err.Error()))
	return exitFail
}

// longFlags are the flags longer than a letter that may be spelled with one dash.
var longFlags = []string{"tags", "strict", "warnings", "json", "verbose", "help", "base", "cpuprofile"}

// goFlagSpelling lets the long flags through with one dash, as the go command spells
// them (-tags, -strict, -json): pflag would otherwise read -tags as the shorthand flags
// -t -a -g -s.
func goFlagSpelling(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok || strings.HasPrefix(name, "-") {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if slices.Contains(longFlags, name) {
			out[i] = "-" + a
		}
	}
	return out
}

// isCobraUsageError recognizes the errors cobra returns for bad flags and arguments.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires "} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// newRootCommand is toolgen's command; name is the command the user runs it by.
func newRootCommand(name string, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "toolgen",
		Short:         "Generate LLM tools from annotated Go functions",
		Long:          "toolgen reads //toolgen:tool functions and writes their JSON Schemas (toolschema/),\nreflection-free argument decoders and a dispatch table (toolgen.gen.go).",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newGenerateCommand(stdout, stderr), newCheckCommand(name, stdout, stderr), newListCommand(stdout, stderr), newDiffCommand(stdout, stderr), newVersionCommand(stdout))
	return root
}

// profiler is the hidden -cpuprofile flag, for measuring toolgen itself (how long a big
// package takes to load and generate): it writes a CPU profile of the command to the
// file named, which go tool pprof reads.
type profiler struct {
	path string
	file *os.File
}

func (p *profiler) register(root *cobra.Command) {
	root.PersistentFlags().StringVar(&p.path, "cpuprofile", "", "write a CPU profile of the command to `file`")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return p.start() }
}

// start begins profiling when the flag names a file.
func (p *profiler) start() error {
	if p.path == "" {
		return nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("cpu profile %s: %w", p.path, err)
	}
	p.file = f
	return nil
}

// stop ends the profile start began, if any, and closes its file.
func (p *profiler) stop() error {
	if p.file == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := p.file.Close()
	p.file = nil
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	return nil
}

// loadFlags are the flags of generate and check.
type loadFlags struct {
	tags     []string
	verbose  bool
	strict   bool
	warnings bool
}

func (f *loadFlags) register(cmd *cobra.Command) {
	registerTags(cmd, &f.tags)
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "print each file written")
	cmd.Flags().BoolVar(&f.strict, "strict", false, "treat warnings as errors: print them as errors, exit 1 and write nothing")
	cmd.Flags().BoolVar(&f.warnings, "warnings", true, "print the warnings; -warnings=false reports errors alone (the inverse of -strict)")
}

func registerTags(cmd *cobra.Command, tags *[]string) {
	cmd.Flags().StringSliceVar(tags, "tags", nil, "build tags to load the packages with (comma-separated)")
}

func newGenerateCommand(stdout, stderr io.Writer) *cobra.Command {
	var flags loadFlags
	cmd := &cobra.Command{
		Use:   "generate [packages]",
		Short: "Write the generated files of the packages (default \".\")",
		RunE: func(cmd *cobra.Command, args []string) error {
			// The schema files of a package without a toolschema directory are
			// written while its Go source renders, and put in place only by Apply.
			stager := output.NewStager(".")
			defer stager.Discard()
			watch := watchInterrupts(stager)
			defer watch.stop()
			changes, err := plan(args, flags, stderr, stager.Stage)
			// What is staged is written before the watch ends, so that a signal
			// while Apply waits for it cannot leave it behind; Apply then writes in
			// place, and the signals have their own actions again.
			stager.Wait()
			watch.stop()
			if err != nil {
				return err
			}
			if err := stager.Apply(changes); err != nil {
				return err
			}
			// A tool that goes is never silent: its directive may have been
			// mistyped in a way toolgen cannot tell from a deliberate removal.
			for _, c := range changes {
				if c.Op == output.Delete && contractdiff.IsContract(c.Path) {
					tool := strings.TrimSuffix(path.Base(c.Path), ".json")
					fmt.Fprintf(stderr, "toolgen: removed tool %s (%s): no function is marked //toolgen:tool for it any more\n", safetext.Line(tool), safetext.Line(c.Path))
				}
			}
			if flags.verbose {
				for _, c := range changes {
					verb := "wrote"
					if c.Op == output.Delete {
						verb = "removed"
					}
					fmt.Fprintf(stdout, "%s %s\n", verb, safetext.Line(c.Path))
				}
			}
			return nil
		},
	}
	flags.register(cmd)
	return cmd
}

func newCheckCommand(name string, stdout, stderr io.Writer) *cobra.Command {
	var flags loadFlags
	cmd := &cobra.Command{
		Use:   "check [packages]",
		Short: "Check that the generated files are current; print a diff and exit 1 if not",
		RunE: func(cmd *cobra.Command, args []string) error {
			changes, err := plan(args, flags, stderr, nil)
			if err != nil {
				return err
			}
			if len(changes) == 0 {
				return nil
			}
			for _, c := range changes {
				fmt.Fprintf(stderr, "%s: %s\n", safetext.Line(c.Path), c.Op)
				stdout.Write(output.Diff(c))
			}
			fmt.Fprintf(stderr, "toolgen check: %d generated %s out of date; run '%s generate'\n", len(changes), plural(len(changes), "file is", "files are"), name)
			return errReported
		},
	}
	flags.register(cmd)
	return cmd
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newVersionCommand(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print toolgen's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info, _ := rdebug.ReadBuildInfo()
			fmt.Fprintf(stdout, "toolgen %s (generated code version %d)\n", moduleVersion(info), toolimpl.GenVersion)
			return nil
		},
	}
}

// modulePath is toolgen's module path.
const modulePath = "github.com/toolgen/toolgen"

// moduleVersion returns the version of toolgen's module in a binary's build
// information. Run as documented, with go run (or go tool) from the user's module,
// toolgen's module is a dependency, not the main module, whose version is the user's.
func moduleVersion(info *rdebug.BuildInfo) string {
	if info == nil {
		return "(devel)"
	}
	m := &info.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range info.Deps {
			if d.Path == modulePath {
				m = d
				break
			}
		}
	}
	if m != nil && m.Replace != nil {
		m = m.Replace
	}
	if m == nil || m.Version == "" {
		return "(devel)"
	}
	return m.Version
}

// plan loads and generates the packages and compares the result with the disk. It
// reports source errors itself and then returns errReported. It prints the warnings;
// with flags.strict, as errors, and then returns errReported. stage, when not nil,
// receives each package's schema files as soon as they are ready (output.Stager.Stage).
func plan(patterns []string, flags loadFlags, stderr io.Writer, stage func(dir string, files []generator.File)) ([]output.Change, error) {
	if flags.strict && !flags.warnings {
		return nil, usageError{errors.New("-strict and -warnings=false contradict each other: -strict makes the warnings errors, -warnings=false leaves them out")}
	}
	gens, warnings, err := generateAll(patterns, flags.tags, stderr, stage)
	if err != nil {
		return nil, err
	}
	if !flags.warnings {
		warnings = nil // errors only: they change neither the files nor the exit status
	}
	for _, w := range warnings {
		if flags.strict {
			fmt.Fprintln(stderr, safetext.Line(strictError(w)))
		} else {
			fmt.Fprintln(stderr, safetext.Line(w.String()))
		}
	}
	if flags.strict && len(warnings) > 0 {
		return nil, errReported
	}
	// Otherwise, warnings do not stop generation, nor change the exit status.
	var dirs []output.Dir
	for _, g := range gens {
		dirs = append(dirs, output.Dir{Path: g.pkg.Dir, Files: g.files})
	}
	return output.Plan(".", dirs)
}

// strictError formats a warning as the error -strict makes it: file:line:col: message.
func strictError(w generator.Warning) string {
	if w.Pos.File == "" {
		return w.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Msg)
}

// generated is one package and its generated files.
type generated struct {
	pkg   *model.Package
	files []generator.File
}

// generateAll loads the packages and generates their files in memory. It reports
// source errors itself and then returns errReported. The warnings come back sorted.
// stage, when not nil, receives each package's schema files (by its directory) as
// soon as they are ready, before its Go source is.
func generateAll(patterns, tags []string, stderr io.Writer, stage func(dir string, files []generator.File)) ([]generated, []generator.Warning, error) {
	pkgs, err := loadPackages(patterns, tags, stderr)
	if err != nil {
		return nil, nil, err
	}
	var gens []generated
	var warnings []generator.Warning
	var source generator.SourceErrors
	for _, p := range pkgs {
		var opts generator.Options
		if stage != nil {
			opts.SchemaFiles = func(files []generator.File) { stage(p.Dir, files) }
		}
		files, ws, err := generator.GenerateWith(p, opts)
		var errs generator.SourceErrors
		if errors.As(err, &errs) {
			source = append(source, errs...)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, ws...)
		gens = append(gens, generated{pkg: p, files: files})
	}
	if len(source) > 0 {
		// Every package's, at once, as the parser's errors are.
		slices.SortStableFunc(source, func(a, b generator.SourceError) int { return strings.Compare(a.String(), b.String()) })
		for _, e := range source {
			fmt.Fprintln(stderr, safetext.Line(e.String()))
		}
		return nil, nil, errReported
	}
	return gens, generator.SortWarnings(warnings), nil
}

// loadPackages loads the packages matching patterns, as generate, check, list and diff
// find them. It reports source errors itself and then returns errReported.
func loadPackages(patterns, tags []string, stderr io.Writer) ([]*model.Package, error) {
	pkgs, err := parser.Load(parser.Config{Tags: tags}, patterns...)
	var list parser.ErrorList
	if errors.As(err, &list) {
		for _, d := range list {
			fmt.Fprintln(stderr, safetext.Line(d.String()))
		}
		return nil, errReported
	}
	return pkgs, err
}
