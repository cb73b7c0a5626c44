package query_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// TestOnlyServerImportsRest: the query types live here so that no package
// under internal but the server depends on rest, the /rest/v1 HTTP handler
// (the command, outside internal, wires it too). Tests may import it.
func TestOnlyServerImportsRest(t *testing.T) {
	allowed := []string{"rest", "server"}
	err := filepath.WalkDir("..", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || dir == ".." {
			return err
		}
		pkg, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", dir)
		if slices.Contains(pkg.Imports, "studio/internal/rest") && !slices.Contains(allowed, filepath.ToSlash(rel)) {
			t.Errorf("internal/%s imports studio/internal/rest", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
