package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"studio/internal/csvexport"
	"studio/internal/query"
	"studio/internal/store"
)

// table is what a list command prints: a header and rows of text, and the
// same records as values for JSON.
type table struct {
	header  []string
	rows    [][]string
	records any // a slice of structs with json tags, one per row
}

// formatFlag binds --format.
func formatFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "format", "table", "output format: table, json or csv")
}

// write prints t in format: an aligned table for people, a JSON array, or
// CSV with a header row (RFC 4180, so values may hold commas and newlines;
// safe to open in a spreadsheet, see csvexport.Cell).
func (t table) write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(t.records)
	case "csv":
		cw := csvexport.NewWriter(w)
		for _, rec := range append([][]string{t.header}, t.rows...) {
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		return cw.Flush()
	case "table":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.ToUpper(strings.Join(t.header, "\t")))
		for _, r := range t.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = oneLineCell(c)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		return tw.Flush()
	}
	return fmt.Errorf("unknown --format %q: want table, json or csv", format)
}

// oneLineCell keeps a table row on one line: line breaks and tabs are shown
// as \n and \t.
func oneLineCell(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`).Replace(s)
}

// checkFormat reports an unknown --format as a usage error.
func checkFormat(format string, stderr io.Writer) error {
	switch format {
	case "table", "json", "csv":
		return nil
	}
	fmt.Fprintf(stderr, "unknown --format %q: want table, json or csv\n", format)
	return errUsage
}

// parseSince parses --since: a Go duration (90m, 24h) or a number of days (7d).
func parseSince(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err == nil && n >= 0 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--since %q: want a duration like 24h, 90m or 7d", s)
	}
	return d, nil
}

// withStore opens the store of cfg for a read, and closes it.
func withStore(ctx context.Context, cfg store.Config, f func(*store.DB) error) error {
	if cfg.DatabaseURL == "" {
		if err := requireData(cfg.DataDir); err != nil {
			return err
		}
	}
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return f(db)
}

func timeCell(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// listCommand makes a "… list" command: the store flags, --format, and the
// table that build reads from the store.
func listCommand(name, summary, description string, build func(ctx context.Context, db *store.DB) (table, error)) command {
	return command{
		name:        name,
		summary:     summary,
		description: description,
		setup: func(fs *flag.FlagSet, env func(string) string) action {
			cfg := storeFlags(fs, env)
			var format string
			formatFlag(fs, &format)
			return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
				if err := noArgs(fs, stderr); err != nil {
					return err
				}
				if err := checkFormat(format, stderr); err != nil {
					return err
				}
				return withStore(ctx, *cfg, func(db *store.DB) error {
					t, err := build(ctx, db)
					if err != nil {
						return err
					}
					return t.write(stdout, format)
				})
			}
		},
	}
}

// exportTable is the table of records with the columns of t's CSV export
// (rest/v1's Accept: text/csv shows the same), each cell as query.CSVCell
// writes the value that values gives for the column.
func exportTable[T any](t *query.Table, records []T, values func(T) map[string]any) table {
	out := table{header: t.Export, records: records}
	for _, r := range records {
		v := values(r)
		row := make([]string, len(t.Export))
		for i, col := range t.Export {
			row[i] = query.CSVCell(v[col])
		}
		out.rows = append(out.rows, row)
	}
	return out
}

// optionalValue is a nullable text as query.CSVCell takes it.
func optionalValue(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// nonNil makes an empty list print as [] in JSON, not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
