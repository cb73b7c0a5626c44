package server_test

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "studio/"

// importsOf returns the imports of the package at import path p (a package
// of this module), without its tests.
func importsOf(t *testing.T, p string) []string {
	t.Helper()
	pkg, err := build.ImportDir(filepath.Join("../..", strings.TrimPrefix(p, module)), 0)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return pkg.Imports
}

// internalPackages lists this module's packages under internal.
func internalPackages(t *testing.T) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir("..", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || dir == ".." {
			return err
		}
		if _, err := build.ImportDir(dir, 0); err == nil {
			rel, _ := filepath.Rel("..", dir)
			pkgs = append(pkgs, module+"internal/"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found only %v: the walk is broken", pkgs)
	}
	return pkgs
}

// protocols are the packages that speak a wire protocol; the server wires
// them, and nothing else under internal imports them (the command, outside
// internal, wires them too; tests may use them).
var protocols = []string{"auth", "rest", "realtime", "storage"}

func protocolOf(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, module+"internal/")
	if !ok {
		return "", false
	}
	top, _, _ := strings.Cut(rel, "/")
	return top, slices.Contains(protocols, top)
}

// TestOnlyServerImportsProtocols: nouns apart from protocols (DESIGN habit
// 15). A protocol's own sub-packages may import it.
func TestOnlyServerImportsProtocols(t *testing.T) {
	for _, p := range internalPackages(t) {
		own, _ := protocolOf(p)
		if p == module+"internal/server" {
			continue
		}
		for _, imp := range importsOf(t, p) {
			if proto, ok := protocolOf(imp); ok && proto != own {
				t.Errorf("%s imports %s: only the server (and the command) may", p, imp)
			}
		}
	}
}

// TestStoreNeedsNoProtocol: the store, with everything it imports, pulls in
// no protocol and none of the libraries of federated sign-in or passkeys.
func TestStoreNeedsNoProtocol(t *testing.T) {
	banned := []string{"github.com/crewjam/saml", "github.com/coreos/go-oidc", "github.com/go-webauthn", "golang.org/x/oauth2"}
	seen := map[string]bool{}
	queue := []string{module + "internal/store"}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, imp := range importsOf(t, p) {
			if _, ok := protocolOf(imp); ok {
				t.Errorf("the store needs %s (through %s)", imp, p)
			}
			for _, b := range banned {
				if strings.HasPrefix(imp, b) {
					t.Errorf("the store needs %s (through %s)", imp, p)
				}
			}
			if strings.HasPrefix(imp, module) {
				queue = append(queue, imp)
			}
		}
	}
	if len(seen) < 3 {
		t.Fatalf("walked only %v: the walk is broken", seen)
	}
}

// TestReadmeListsEveryPackage: the README's layout names every package of
// the module, so that a newcomer finds each room on the map.
func TestReadmeListsEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(readme), "## Layout")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(layout, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasSuffix(f[0], "/") {
			listed[strings.TrimSuffix(f[0], "/")] = true
		}
	}
	err = filepath.WalkDir("../..", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); name == "node_modules" || name == "web" || strings.HasPrefix(name, ".") && dir != "../.." {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(dir, 0); err != nil {
			return nil
		}
		rel, _ := filepath.Rel("../..", dir)
		if rel = filepath.ToSlash(rel); (strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "cmd/")) && !listed[rel] {
			t.Errorf("README.md's layout does not list %s/", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
