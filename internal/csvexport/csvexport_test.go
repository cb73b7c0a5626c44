package csvexport_test

import (
	"bytes"
	"testing"

	"studio/internal/csvexport"
)

func TestCell(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"text", "Ada Lovelace", "Ada Lovelace"},
		{"equals", `=HYPERLINK("https://evil.example","x")`, `'=HYPERLINK("https://evil.example","x")`},
		{"plus", "+1 555 0100", "'+1 555 0100"},
		{"minus", "-2+3", "'-2+3"},
		{"at", "@SUM(A1)", "'@SUM(A1)"},
		{"tab", "\t=1", "'\t=1"},
		{"carriage return", "\r=1", "'\r=1"},
		{"formula later", "a=1", "a=1"},
		{"space first", " =1", " =1"},
		{"newline first", "\n=1", "\n=1"},
		{"quote first", "'=1", "'=1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := csvexport.Cell(tt.in); got != tt.want {
				t.Errorf("Cell(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := csvexport.NewWriter(&b)
	rec := []string{"=1+1", "a,b", "-x"}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "'=1+1,\"a,b\",'-x\n"; b.String() != want {
		t.Errorf("CSV = %q, want %q", b.String(), want)
	}
	if rec[0] != "=1+1" {
		t.Errorf("the record was changed: %q", rec)
	}
}
