package query

import (
	"fmt"
	"strings"
)

// DatabaseTypesPath is where the console keeps the TypeScript that
// TypeScript renders, relative to the repository's root.
const DatabaseTypesPath = "web/app/admin/data/database.ts"

// TypeScript renders Tables as the Database type supabase-js takes
// (SupabaseClient<Database>), in the shape "supabase gen types" writes:
// public.Tables[name] with Row, Insert, Update and Relationships, and empty
// Views, Functions, Enums and CompositeTypes. Row has every column; Insert
// is empty (rest/v1 inserts nothing); Update has the columns PATCH may set.
// typescript_test.go keeps the committed file equal to it.
func TypeScript() string {
	var b strings.Builder
	b.WriteString("// Generated from internal/query/tables.go by `go test ./internal/query -run TestDatabaseTypes -update`;\n")
	b.WriteString("// that test fails when this file is out of date. Do not edit.\n\n")
	b.WriteString("export type Database = {\n  public: {\n    Tables: {\n")
	for _, t := range Tables {
		fmt.Fprintf(&b, "      %s: {\n", t.Name)
		b.WriteString("        Row: {\n")
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "          %s: %s;\n", c.Name, tsType(c))
		}
		b.WriteString("        };\n")
		b.WriteString("        Insert: { [_ in never]: never };\n")
		var patch []Column
		for _, c := range t.Columns {
			if c.Patch {
				patch = append(patch, c)
			}
		}
		if len(patch) == 0 {
			b.WriteString("        Update: { [_ in never]: never };\n")
		} else {
			b.WriteString("        Update: {\n")
			for _, c := range patch {
				fmt.Fprintf(&b, "          %s?: %s;\n", c.Name, tsType(c))
			}
			b.WriteString("        };\n")
		}
		b.WriteString("        Relationships: [];\n      };\n")
	}
	b.WriteString("    };\n")
	for _, k := range []string{"Views", "Functions", "Enums", "CompositeTypes"} {
		fmt.Fprintf(&b, "    %s: { [_ in never]: never };\n", k)
	}
	b.WriteString("  };\n};\n")
	return b.String()
}

// tsType is the TypeScript type of a column's JSON value.
func tsType(c Column) string {
	t := "string" // Text, and Time as an ISO 8601 string
	if c.Type == Bool {
		t = "boolean"
	}
	if c.Nullable {
		t += " | null"
	}
	return t
}
