// Package csvexport writes the studio's CSV exports (rest/v1's Accept:
// text/csv and "studio … list --format csv") so that a spreadsheet opens
// every cell as text, never as a formula (CSV injection).
package csvexport

import (
	"encoding/csv"
	"io"
)

// Cell is s as an export writes it: prefixed with a single quote when it
// begins with a character a spreadsheet reads as the start of a formula
// ("=", "+", "-", "@", tab or carriage return), as OWASP advises; else s.
func Cell(s string) string {
	if s != "" && isFormulaStart(s[0]) {
		return "'" + s
	}
	return s
}

func isFormulaStart(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// Writer writes records as RFC 4180 CSV, each cell as Cell makes it.
type Writer struct {
	csv  *csv.Writer
	cell []string
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{csv: csv.NewWriter(w)} }

// Write writes one record; record itself is left as it is.
func (w *Writer) Write(record []string) error {
	w.cell = w.cell[:0]
	for _, s := range record {
		w.cell = append(w.cell, Cell(s))
	}
	return w.csv.Write(w.cell)
}

// Flush writes any buffered data and returns the first error of a write or
// of the flush.
func (w *Writer) Flush() error {
	w.csv.Flush()
	return w.csv.Error()
}
