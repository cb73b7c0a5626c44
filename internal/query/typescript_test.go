package query_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"studio/internal/query"
)

var update = flag.Bool("update", false, "write "+query.DatabaseTypesPath+" from tables.go")

// TestDatabaseTypes: the console's typed client (web/app/admin/data/database.ts)
// describes the tables rest/v1 exposes, as tables.go defines them.
func TestDatabaseTypes(t *testing.T) {
	path := filepath.Join("..", "..", filepath.FromSlash(query.DatabaseTypesPath))
	want := query.TypeScript()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is out of date with internal/query/tables.go; run: go test ./internal/query -run TestDatabaseTypes -update", query.DatabaseTypesPath)
	}
}
