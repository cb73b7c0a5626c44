package realtime

import (
	"encoding/json"

	"studio/internal/changes"
	"studio/internal/query"
)

// columnTypes are PostgreSQL's names of the column types, which
// realtime-js reads to convert values.
var columnTypes = map[query.Type]string{query.Text: "text", query.Time: "timestamptz", query.Bool: "bool"}

type column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// changeData is the data of a postgres_changes message: the row as rest/v1
// shows it, and for an update the key of the old row (the store keeps no
// old values, as PostgreSQL's default replica identity does not).
func changeData(t *query.Table, change changes.Change, row query.Row) json.RawMessage {
	cols := make([]column, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = column{c.Name, columnTypes[c.Type]}
	}
	data := struct {
		Schema          string          `json:"schema"`
		Table           string          `json:"table"`
		CommitTimestamp string          `json:"commit_timestamp"`
		Type            string          `json:"type"`
		Columns         []column        `json:"columns"`
		Record          json.RawMessage `json:"record"`
		OldRecord       json.RawMessage `json:"old_record,omitempty"`
		Errors          []string        `json:"errors"`
	}{
		Schema: "public", Table: t.Name, Type: change.Type, Columns: cols,
		CommitTimestamp: change.At.UTC().Format("2006-01-02T15:04:05.000Z"),
		Record:          query.ObjectJSON(t.Columns, row, false),
	}
	if change.Type == changes.Update {
		keys := make([]query.Column, len(t.Key))
		vals := make(query.Row, len(t.Key))
		for i, k := range t.Key {
			keys[i], _ = t.Column(k)
			vals[i] = change.Key[i]
		}
		data.OldRecord = query.ObjectJSON(keys, vals, false)
	}
	return mustJSON(data)
}
