package store_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"studio/internal/changes"
	"studio/internal/contact"
	"studio/internal/query"
	"studio/internal/signup"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// restCase is one read of rest/v1: the query string and the keys of the
// rows it must return, in order, and the total with count.
type restCase struct {
	name  string
	table *query.Table
	query string
	keys  []string // each row's key, parts joined by /
	total int      // -1: not counted
}

// restCases run on both engines; each must give exactly the same rows
// (every value), order and counts on both.
var restCases = []restCase{
	{"everything, by key", query.ContactMessages, "", ids(1, 2, 3, 4, 5, 6, 7, 8), -1},
	{"newest first, ties by key in the same direction", query.ContactMessages, "order=received_at.desc", ids(8, 7, 6, 5, 4, 3, 2, 1), -1},
	{"a page with the total", query.ContactMessages, "order=received_at.desc&limit=3&offset=2", ids(6, 5, 4), 8},
	{"a page past the end", query.ContactMessages, "offset=8&limit=25", nil, 8},
	{"offset without limit", query.ContactMessages, "offset=6", ids(7, 8), -1},
	{"limit 0 counts only", query.ContactMessages, "limit=0", nil, 8},
	{"eq", query.ContactMessages, "id=eq.m03", ids(3), 1},
	{"eq on a boolean", query.ContactMessages, "spam=eq.true", ids(3, 8), -1},
	{"neq", query.ContactMessages, "spam=neq.true", ids(1, 2, 4, 5, 6, 7), -1},
	{"gt on a time", query.ContactMessages, "received_at=gt.2025-05-16T12:30:00.123456Z", ids(6, 7, 8), -1},
	{"gte on a time", query.ContactMessages, "received_at=gte.2025-05-16T12:30:00.123456%2B00:00", ids(4, 5, 6, 7, 8), -1},
	{"lt to the microsecond", query.ContactMessages, "received_at=lt.2025-05-16T10:30:00.123456Z", ids(1), -1},
	{"lte to the microsecond", query.ContactMessages, "received_at=lte.2025-05-16T10:30:00.123456Z", ids(1, 2), -1},
	{"a time range", query.ContactMessages, "received_at=gte.2025-05-16T10:00:00Z&received_at=lt.2025-05-16 13:00:00", ids(2, 3, 4, 5), -1},
	{"gt on text compares bytes", query.ContactMessages, "email=gt.m", ids(2, 7), -1},
	{"like is case-sensitive", query.ContactMessages, "name=like.*Hopper", ids(4), -1},
	{"ilike folds case", query.ContactMessages, "name=ilike.*hopper", ids(4, 5), -1},
	{"ilike folds non-ASCII letters", query.ContactMessages, "name=ilike.ÉMILE*", ids(6), -1},
	{"ilike with a non-ASCII pattern", query.ContactMessages, "name=ilike.*zoë*", ids(2), -1},
	{"like with % as a wildcard", query.ContactMessages, "message=like.%25sure%25", ids(5), -1},
	{"like with an escaped %", query.ContactMessages, `message=like.*100\%25*`, ids(5), -1},
	{"like with _", query.ContactMessages, "message=like.*sure_thing", ids(5), -1},
	{"like with an escaped *", query.ContactMessages, `message=like.*\*star`, ids(6), -1},
	{"like keeps [ literal", query.ContactMessages, "name=like.[bracket]", ids(8), -1},
	{"like keeps ? literal", query.ContactMessages, "message=like.question?", ids(8), -1},
	{"is true", query.ContactMessages, "spam=is.true", ids(3, 8), 2},
	{"not is false", query.ContactMessages, "spam=not.is.false", ids(3, 8), -1},
	{"is null", query.ContactMessages, "company=is.null", ids(2, 3, 8), -1},
	{"not is null", query.ContactMessages, "company=not.is.null", ids(1, 4, 5, 6, 7), -1},
	{"open: not handled, not spam", query.ContactMessages, "handled_at=is.null&spam=is.false", ids(1, 2, 5, 6), 4},
	{"handled", query.ContactMessages, "handled_at=not.is.null", ids(4, 7), -1},
	{"in", query.ContactMessages, "id=in.(m01,m03,m09)", ids(1, 3), -1},
	{"not in", query.ContactMessages, "id=not.in.(m01,m03)", ids(2, 4, 5, 6, 7, 8), -1},
	{"in with nothing", query.ContactMessages, "id=in.()", nil, 0},
	{"in with quoted values", query.ContactMessages, `company=in.("A,B (C)",navy)`, ids(5, 7), -1},
	{"or across columns", query.ContactMessages, "or=(name.ilike.*grace*,email.ilike.*grace*)", ids(4, 5), -1},
	{"search across four columns", query.ContactMessages,
		"or=(name.ilike.*navy*,email.ilike.*navy*,company.ilike.*navy*,message.ilike.*navy*)&order=received_at.desc", ids(5, 4), 2},
	{"or with a nested and", query.ContactMessages, "or=(spam.is.true,and(handled_at.not.is.null,handled_by.eq.bob@studio.test))", ids(3, 7, 8), -1},
	{"not.or", query.ContactMessages, "not.or=(spam.is.true,company.is.null)", ids(1, 4, 5, 6, 7), -1},
	{"or with a quoted value", query.ContactMessages, `or=(company.eq."A,B (C)",id.eq.m01)`, ids(1, 7), -1},
	{"or and a filter", query.ContactMessages, "or=(spam.is.true,id.eq.m01)&received_at=gt.2025-05-16T10:00:00Z", ids(3, 8), -1},
	{"order by text sorts bytes, nulls last", query.ContactMessages, "order=company.asc", ids(7, 1, 4, 5, 6, 2, 3, 8), -1},
	{"nulls first", query.ContactMessages, "order=company.asc.nullsfirst", ids(2, 3, 8, 7, 1, 4, 5, 6), -1},
	{"desc puts nulls first", query.ContactMessages, "order=company.desc", ids(8, 3, 2, 6, 5, 4, 1, 7), -1},
	{"desc nulls last", query.ContactMessages, "order=company.desc.nullslast", ids(6, 5, 4, 1, 7, 8, 3, 2), -1},
	{"order by names", query.ContactMessages, "order=name", ids(1, 4, 7, 2, 8, 3, 5, 6), -1},
	{"two sort keys", query.ContactMessages, "order=spam.desc,received_at.asc", ids(3, 8, 1, 2, 5, 4, 6, 7), -1},
	{"listed columns", query.ContactMessages, "select=id,spam,handled_by&id=eq.m07", ids(7), -1},
	{"waitlist newest first", query.Waitlist, "order=joined_at.desc", []string{"p2/b@example.com", "p1/c@example.com", "p1/a@example.com"}, 3},
	{"waitlist of one product", query.Waitlist, "product_id=eq.p1", []string{"p1/a@example.com", "p1/c@example.com"}, 2},
	{"waitlist search", query.Waitlist, "email=ilike.B*", []string{"p2/b@example.com"}, -1},
	{"subscribers newest first", query.Subscribers, "order=subscribed_at.desc&limit=1", []string{"z@example.com"}, 2},
	{"subscribers search", query.Subscribers, "email=like.a*", []string{"a.b@example.com"}, -1},
}

func ids(n ...int) []string {
	out := make([]string, len(n))
	for i, v := range n {
		out[i] = "m0" + string(rune('0'+v))
	}
	return out
}

// TestRestQueries runs every case on both engines and compares their
// answers with the keys expected and with each other.
func TestRestQueries(t *testing.T) {
	answers := map[string][]query.Result{}
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			seedRest(t, db)
			for _, tc := range restCases {
				t.Run(tc.name, func(t *testing.T) {
					res := runRest(t, db, tc)
					answers[tc.name] = append(answers[tc.name], res)
				})
			}
		})
	}
	for _, tc := range restCases {
		if a := answers[tc.name]; len(a) == 2 {
			if diff := cmp.Diff(a[0], a[1]); diff != "" {
				t.Errorf("%s: sqlite and postgres differ (-sqlite +postgres):\n%s", tc.name, diff)
			}
		}
	}
}

func runRest(t *testing.T, db *store.DB, tc restCase) query.Result {
	t.Helper()
	params, err := url.ParseQuery(tc.query)
	if err != nil {
		t.Fatal(err)
	}
	q, perr := query.Parse(tc.table, params)
	if perr != nil {
		t.Fatalf("parse %q: %v", tc.query, perr)
	}
	q.Count = tc.total >= 0
	// Keys are read with every column, whatever the case selects.
	cols := q.Select
	q.Select = tc.table.Columns
	res, err := db.Select(context.Background(), q)
	if err != nil {
		t.Fatalf("select %q: %v", tc.query, err)
	}
	var keys []string
	for _, r := range res.Rows {
		keys = append(keys, rowKey(tc.table, r))
	}
	if diff := cmp.Diff(tc.keys, keys); diff != "" {
		t.Errorf("%s: rows (-want +got):\n%s", tc.query, diff)
	}
	if tc.total >= 0 && res.Total != tc.total {
		t.Errorf("%s: total = %d, want %d", tc.query, res.Total, tc.total)
	}
	q.Select = cols
	res, err = db.Select(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func rowKey(t *query.Table, r query.Row) string {
	var parts []string
	for _, k := range t.Key {
		for i, c := range t.Columns {
			if c.Name == k {
				parts = append(parts, r[i].(string))
			}
		}
	}
	return strings.Join(parts, "/")
}

// seedRest stores the rows the cases read: messages m01…m08 an hour apart
// (m04 and m05 at the same time), m04 and m07 handled.
func seedRest(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	msgs := []contact.Message{
		{ID: "m01", ReceivedAt: at(0), Name: "Ada Lovelace", Email: "ada@example.com", Company: ptr("Analytical Engines"), Message: "Hello there"},
		{ID: "m02", ReceivedAt: at(1), Name: "Zoë Ñúñez", Email: "zoe@example.com", Phone: ptr("+1 415 555 0142"), Message: "Need a quote, please"},
		{ID: "m03", ReceivedAt: at(2), Name: "bot", Email: "bot@spam.test", Message: "BUY NOW", Spam: true},
		{ID: "m04", ReceivedAt: at(3), Name: "Grace Hopper", Email: "grace@navy.mil", Company: ptr("US Navy"), Message: "COBOL (and more)"},
		{ID: "m05", ReceivedAt: at(3), Name: "grace hopper", Email: "g.hopper@example.com", Company: ptr("navy"), Message: "lowercase 100% sure_thing"},
		{ID: "m06", ReceivedAt: at(4), Name: "Émile Zola", Email: "emile@example.fr", Company: ptr("Éditions"), Message: "Bonjour*star"},
		{ID: "m07", ReceivedAt: at(5), Name: "O'Brien, Pat", Email: "pat@example.com", Company: ptr("A,B (C)"), Message: "quote\"d\nline two"},
		{ID: "m08", ReceivedAt: at(6), Name: "[bracket]", Email: "br@example.com", Message: "question?", Spam: true},
	}
	for _, m := range msgs {
		if _, err := db.CreateContactMessage(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	handle(t, db, "m04", at(10), "ada@studio.test")
	handle(t, db, "m07", at(11), "bob@studio.test")
	for _, e := range []signup.WaitlistEntry{{ProductID: "p1", Email: "a@example.com", JoinedAt: at(0)}, {ProductID: "p1", Email: "c@example.com", JoinedAt: at(1)}, {ProductID: "p2", Email: "b@example.com", JoinedAt: at(2)}} {
		if _, err := db.JoinWaitlist(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []signup.Subscriber{{Email: "a.b@example.com", SubscribedAt: at(0)}, {Email: "z@example.com", SubscribedAt: at(1)}} {
		if _, err := db.Subscribe(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}

func handle(t *testing.T, db *store.DB, id string, at time.Time, by string) []query.Row {
	t.Helper()
	q, perr := query.Parse(query.ContactMessages, url.Values{"id": {"eq." + id}, "select": {"id,handled_at,handled_by"}})
	if perr != nil {
		t.Fatal(perr)
	}
	col := func(name string) query.Column { c, _ := query.ContactMessages.Column(name); return c }
	rows, err := db.Update(context.Background(), q, []query.Assignment{{Column: col("handled_at"), Value: at}, {Column: col("handled_by"), Value: by}})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRestUpdate: an update returns the rows as updated and publishes one
// UPDATE change per row, after the commit.
func TestRestUpdate(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) {
			db := engine.New(t)
			ctx := context.Background()
			if _, err := db.CreateContactMessage(ctx, message("m01", t0), nil); err != nil {
				t.Fatal(err)
			}
			follow(t, db) // on PostgreSQL, changes come back through NOTIFY
			sub := db.Changes().Subscribe(4)
			defer sub.Close()
			at := t0.Add(time.Hour)
			rows := handle(t, db, "m01", at, "ada@studio.test")
			if diff := cmp.Diff([]query.Row{{"m01", at, "ada@studio.test"}}, rows); diff != "" {
				t.Errorf("returned rows (-want +got):\n%s", diff)
			}
			select {
			case c := <-sub.C:
				if c.Table != "contact_messages" || c.Type != changes.Update || cmp.Diff([]string{"m01"}, c.Key) != "" {
					t.Errorf("change = %+v", c)
				}
			case <-time.After(time.Second):
				t.Fatal("no change published")
			}
			if rows := handle(t, db, "nope", at, "x"); len(rows) != 0 {
				t.Errorf("update of no row returned %v", rows)
			}
		})
	}
}
