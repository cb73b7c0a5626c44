package realtime

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"

	"studio/internal/changes"
	"studio/internal/query"
)

// joinPayload is what phx_join carries.
type joinPayload struct {
	Config struct {
		PostgresChanges []changeFilter `json:"postgres_changes"`
		Private         bool           `json:"private"`
	} `json:"config"`
	AccessToken string `json:"access_token"`
}

// changeFilter is one postgres_changes subscription as the client sends it
// and as the join reply returns it (with its id).
type changeFilter struct {
	ID     int64  `json:"id,omitempty"`
	Event  string `json:"event"`
	Schema string `json:"schema"`
	Table  string `json:"table,omitempty"`
	Filter string `json:"filter,omitempty"`
}

// binding is a subscription of a joined channel: which changes of which
// tables it wants, and the rows they must match.
type binding struct {
	changeFilter
	tables []*query.Table
	where  map[*query.Table]*query.Cond // nil: every row
}

var nextBindingID atomic.Int64

// parseBinding checks a subscription: event INSERT, UPDATE, DELETE or *,
// schema public, an exposed table (or every one), and a filter in
// PostgREST's syntax, column=operator.value.
func parseBinding(f changeFilter) (*binding, error) {
	b := &binding{changeFilter: f}
	switch f.Event {
	case changes.Insert, changes.Update, changes.Delete, "*":
	default:
		return nil, fmt.Errorf("event %q: want INSERT, UPDATE, DELETE or *", f.Event)
	}
	if f.Schema != "public" {
		return nil, fmt.Errorf("schema %q: only public is exposed", f.Schema)
	}
	if f.Table == "" || f.Table == "*" {
		b.tables = query.Tables
	} else if t, ok := query.TableNamed(f.Table); ok {
		b.tables = []*query.Table{t}
	} else {
		return nil, fmt.Errorf("table %q: not an exposed table", f.Table)
	}
	if f.Filter != "" {
		col, expr, ok := strings.Cut(f.Filter, "=")
		if !ok {
			return nil, fmt.Errorf("filter %q: want column=operator.value", f.Filter)
		}
		b.where = map[*query.Table]*query.Cond{}
		for _, t := range b.tables {
			q, err := query.Parse(t, url.Values{col: {expr}})
			if err != nil {
				return nil, fmt.Errorf("filter %q: %s", f.Filter, err.Message)
			}
			b.where[t] = q.Where
		}
	}
	b.ID = nextBindingID.Add(1)
	return b, nil
}

// wants reports whether b asks for changes of type typ to t.
func (b *binding) wants(t *query.Table, typ string) bool {
	if b.Event != "*" && b.Event != typ {
		return false
	}
	for _, bt := range b.tables {
		if bt == t {
			return true
		}
	}
	return false
}

func decodeJoin(raw json.RawMessage) (joinPayload, error) {
	var p joinPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("join payload: %w", err)
	}
	return p, nil
}
