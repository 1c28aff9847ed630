package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestUserModule runs the README's commands and builds its files as a user follows
// them, in fresh modules of their own (testREADME), then the scripts of
// testdata/usermodule, which add go mod tidy and generation from no files. Each script starts
// in an empty module example.com/app whose go.mod has nothing but a replace of this
// repository by this checkout (the stand-in for the published version go get would
// fetch), so every requirement, go.sum line and tool directive comes from the
// commands the script runs. The go commands are the real ones, with the host's build
// and module caches. They start with the module proxy off: go get resolves toolgen
// through the replace and its requirements from the module cache (which the root
// module's own download filled), while a proxy knows nothing of this checkout's
// github.com/toolgen/toolgen/cmd/toolgen (and some proxies answer that with an error,
// not a 404). A script turns the host's proxy on ($HOSTGOPROXY) where it needs modules
// the root module does not (go mod tidy records the checksums of what the tests of
// toolgen's dependencies import). The checksum database is off: the sums come from the
// module cache and the proxy.
func TestUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolgen and a module with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/app\n\ngo 1.26\n\nreplace github.com/toolgen/toolgen => " + root + "\n"
	// go test ./... downloads what the root module's packages build with, but go get
	// -tool also reads the go.mod of every module in toolgen's graph (cobra's
	// go-md2man, for one): download them all, with the host's proxy, so that the
	// scripts find them in the module cache even when it started empty.
	// The README's test needs toolopenai's requirements (openai-go) too.
	for _, dir := range []string{root, filepath.Join(root, "toolopenai")} {
		download := exec.Command("go", "mod", "download")
		download.Dir = dir
		if out, err := download.CombinedOutput(); err != nil {
			t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
		}
	}
	env := userModuleEnv(t)
	t.Run("README", func(t *testing.T) { testREADME(t, root, env) })
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(root, "testdata", "usermodule"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Vars = append(e.Vars, env...)
			return os.WriteFile(filepath.Join(e.WorkDir, "go.mod"), []byte(gomod), 0o666)
		},
	})
}

// userModuleEnv returns the environment of the go commands of TestUserModule.
// testscript sets HOME to /no-home, so what the go command derives from HOME (GOPATH,
// GOMODCACHE, GOCACHE) is taken from the host. GOFLAGS is cleared: the user's go
// commands run with their defaults (-mod=readonly), as the README's do.
func userModuleEnv(t *testing.T) []string {
	names := []string{"GOPATH", "GOMODCACHE", "GOCACHE"}
	out, err := exec.Command("go", append([]string{"env", "-json", "GOPROXY"}, names...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var host map[string]string
	if err := json.Unmarshal(out, &host); err != nil {
		t.Fatalf("go env: %v", err)
	}
	var env []string
	for _, name := range names {
		v := os.Getenv(name)
		if v == "" {
			v = host[name]
		}
		env = append(env, name+"="+v)
	}
	for _, name := range []string{"CGO_ENABLED", "GOEXPERIMENT", "GOROOT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return append(env,
		"HOSTGOPROXY="+host["GOPROXY"],
		"GOFLAGS=",
		"GOPROXY=off",
		"GOSUMDB=off",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
}
