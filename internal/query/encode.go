package query

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"studio/internal/csvexport"
)

// jsonTime is how a timestamp reads in JSON, as PostgREST writes
// timestamptz: microseconds, and the zone as +00:00.
const jsonTime = "2006-01-02T15:04:05.999999-07:00"

// FormatTime formats a time as JSON (and realtime) shows it.
func FormatTime(t time.Time) string { return t.UTC().Format(jsonTime) }

// appendObject appends row as a JSON object of cols; nil values are left
// out when stripNulls.
func appendObject(b *bytes.Buffer, cols []Column, row Row, stripNulls bool) {
	b.WriteByte('{')
	first := true
	for i, c := range cols {
		if row[i] == nil && stripNulls {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		name, _ := json.Marshal(c.Name)
		b.Write(name)
		b.WriteByte(':')
		appendValue(b, row[i])
	}
	b.WriteByte('}')
}

func appendValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case time.Time:
		b.WriteString(strconv.Quote(FormatTime(v))) // digits, -, :, . and T only
	default:
		enc, _ := json.Marshal(v) // strings and booleans always encode
		b.Write(enc)
	}
}

// ObjectJSON is row as a JSON object of cols, as rest/v1 and realtime/v1
// show it; nil values are left out when stripNulls.
func ObjectJSON(cols []Column, row Row, stripNulls bool) json.RawMessage {
	var b bytes.Buffer
	appendObject(&b, cols, row, stripNulls)
	return b.Bytes()
}

// ArrayJSON is rows as a JSON array of objects (see ObjectJSON).
func ArrayJSON(cols []Column, rows []Row, stripNulls bool) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		appendObject(&b, cols, r, stripNulls)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// CSVCell is a value as a CSV export (and "studio … list") writes it: a
// time in UTC to the second, RFC 3339; true or false; nothing for null.
func CSVCell(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case time.Time:
		return v.UTC().Format(time.RFC3339)
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	}
	return ""
}

// WriteCSV writes a header row of cols and rows (RFC 4180), safe to open in
// a spreadsheet (see csvexport.Cell).
func WriteCSV(w io.Writer, cols []Column, rows []Row) error {
	cw := csvexport.NewWriter(w)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, r := range rows {
		for i := range cols {
			rec[i] = CSVCell(r[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	return cw.Flush()
}
