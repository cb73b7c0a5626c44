package query

// Type is the type of an exposed column, as JSON shows it.
type Type int

// Column types.
const (
	Text Type = iota // a JSON string
	Time             // a timestamp with time zone, a JSON string like 2025-05-16T09:30:00.123456+00:00
	Bool             // a JSON boolean
)

// Column is one exposed column. Its name is also its name in the store.
type Column struct {
	Name     string
	Type     Type
	Nullable bool
	// Patch marks the columns PATCH may set.
	Patch bool
}

// Table is one exposed table: what clients may read, filter and order by,
// and what the store keeps it in.
type Table struct {
	Name    string   // the name in /rest/v1/{name}
	Store   string   // the store's table (also changes.Change.Table)
	Columns []Column // in the order select=* returns them
	Key     []string // the primary key: the last sort key of every query
	// Export is the columns of a CSV export (Accept: text/csv with select=*
	// or no select), the same as "studio … list --format csv".
	Export []string
}

// Column returns the column called name.
func (t *Table) Column(name string) (Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// The exposed tables.
var (
	ContactMessages = &Table{
		Name:  "contact_messages",
		Store: "contact_messages",
		Columns: []Column{
			{Name: "id", Type: Text},
			{Name: "received_at", Type: Time},
			{Name: "name", Type: Text},
			{Name: "email", Type: Text},
			{Name: "company", Type: Text, Nullable: true},
			{Name: "phone", Type: Text, Nullable: true},
			{Name: "message", Type: Text},
			{Name: "spam", Type: Bool, Patch: true},
			{Name: "handled_at", Type: Time, Nullable: true, Patch: true},
			{Name: "handled_by", Type: Text, Nullable: true, Patch: true},
		},
		Key:    []string{"id"},
		Export: []string{"id", "received_at", "spam", "name", "email", "company", "phone", "message"},
	}
	Waitlist = &Table{
		Name:  "waitlist",
		Store: "waitlist_entries",
		Columns: []Column{
			{Name: "product_id", Type: Text},
			{Name: "email", Type: Text},
			{Name: "joined_at", Type: Time},
		},
		Key:    []string{"product_id", "email"},
		Export: []string{"product_id", "email", "joined_at"},
	}
	Subscribers = &Table{
		Name:  "subscribers",
		Store: "newsletter_subscribers",
		Columns: []Column{
			{Name: "email", Type: Text},
			{Name: "subscribed_at", Type: Time},
		},
		Key:    []string{"email"},
		Export: []string{"email", "subscribed_at"},
	}
)

// AnalyticsLive is one row ("now") that every write of the analytics
// counts touches: the console's analytics screen listens to it over
// realtime/v1 and reads the counts again.
var AnalyticsLive = &Table{
	Name:  "analytics_live",
	Store: "analytics_live",
	Columns: []Column{
		{Name: "id", Type: Text},
		{Name: "updated_at", Type: Time},
	},
	Key:    []string{"id"},
	Export: []string{"id", "updated_at"},
}

// Tables are the exposed tables; nothing else is.
var Tables = []*Table{ContactMessages, Waitlist, Subscribers, AnalyticsLive}

// TableNamed returns the exposed table called name.
func TableNamed(name string) (*Table, bool) {
	for _, t := range Tables {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// TableStored returns the exposed table kept in the store's table store.
func TableStored(store string) (*Table, bool) {
	for _, t := range Tables {
		if t.Store == store {
			return t, true
		}
	}
	return nil, false
}
