package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	_ "modernc.org/sqlite"
)

// consoleQueries are the console's reads measured: the inbox's first page
// with and without its total, the open filter, and a search across four
// columns.
var consoleQueries = []struct{ name, query string }{
	{"inbox page + count", "select=*&order=received_at.desc&limit=25"},
	{"inbox page, no count", "select=*&order=received_at.desc&limit=25"},
	{"open page + count", "select=*&handled_at=is.null&spam=is.false&order=received_at.desc&limit=25"},
	{"search page + count", "select=*&or=(name.ilike.*company%2042*,email.ilike.*company%2042*,company.ilike.*company%2042*,message.ilike.*company%2042*)&order=received_at.desc&limit=25"},
}

// benchConsole measures, on each engine with messages contact messages,
// the console's queries (requests each, one client) and the time from a
// committed contact message to its arrival at consoles joined channels.
func benchConsole(binary string, engines []string, messages, requests, consoles int) error {
	fmt.Printf("staff console: %d contact messages, %d requests per query (one client, p50/p99);\n", messages, requests)
	fmt.Printf("realtime: %d consoles joined, commit to arrival at all of them, 50 messages\n\n", consoles)
	fmt.Printf("%-9s %-24s %10s %10s %10s\n", "store", "measure", "p50", "p99", "max")
	for _, engine := range engines {
		if err := benchConsoleEngine(binary, engine, messages, requests, consoles); err != nil {
			return fmt.Errorf("%s: %w", engine, err)
		}
	}
	return nil
}

func benchConsoleEngine(binary, engine string, messages, requests, consoles int) error {
	st, err := newStore(engine)
	if err != nil {
		return err
	}
	defer st.cleanup()
	// Every console connects from the loopback: one client address.
	base, stop, err := start(binary, append([]string{"serve", "--addr", "127.0.0.1:0", "--rate-limit", "off", "--auth-rate-limit", "off",
		"--realtime-max-conns-per-ip", fmt.Sprint(consoles)}, st.args...), st.env)
	if err != nil {
		return err
	}
	defer stop()
	if err := seedMessages(engine, st.args, st.env, messages); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	staff, err := newStaff(st, binary, base)
	if err != nil {
		return err
	}
	token := staff.AccessToken

	client := &http.Client{Timeout: 10 * time.Second}
	for _, q := range consoleQueries {
		lat, err := timeRequests(requests, func() error {
			req, _ := http.NewRequest("GET", base+"/rest/v1/contact_messages?"+q.query, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			if strings.Contains(q.name, "+ count") {
				req.Header.Set("Prefer", "count=exact")
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				return fmt.Errorf("%s: status %d", q.name, resp.StatusCode)
			}
			return nil
		})
		if err != nil {
			return err
		}
		printLatencies(engine, q.name, lat)
	}

	lat, err := fanOut(base, base, token, consoles, 50)
	if err != nil {
		return fmt.Errorf("realtime: %w", err)
	}
	printLatencies(engine, fmt.Sprintf("realtime to %d", consoles), lat)
	return nil
}

func printLatencies(engine, name string, lat []time.Duration) {
	slices.Sort(lat)
	fmt.Printf("%-9s %-24s %10s %10s %10s\n", engine, name, ms(lat[len(lat)*50/100]), ms(lat[min(len(lat)-1, len(lat)*99/100)]), ms(lat[len(lat)-1]))
}

// timeRequests runs f n times after a warm-up of n/10, one at a time, and
// returns each run's time.
func timeRequests(n int, f func() error) ([]time.Duration, error) {
	for range n / 10 {
		if err := f(); err != nil {
			return nil, err
		}
	}
	lat := make([]time.Duration, 0, n)
	for range n {
		t0 := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t0))
	}
	return lat, nil
}

// seedMessages adds n contact messages a minute apart, ending now, in one
// statement: a third handled, one in fifty spam, one in seven without a
// company, and 500 companies to search for. The server has made the schema.
func seedMessages(engine string, storeArgs, env []string, n int) error {
	at, handled := "now() - i * interval '1 minute'", "CASE WHEN i % 3 = 0 THEN now() END"
	if engine == "sqlite" {
		// The store's text form of a time: UTC, microseconds, fixed width.
		at = "strftime('%Y-%m-%dT%H:%M:%f', 'now', '-' || i || ' minutes') || '000Z'"
		handled = "CASE WHEN i % 3 = 0 THEN strftime('%Y-%m-%dT%H:%M:%f', 'now') || '000Z' END"
	}
	db, err := openStore(engine, storeArgs, env)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ` + fmt.Sprint(n) + `)
		INSERT INTO contact_messages (id, received_at, name, email, company, phone, message, spam, handled_at, handled_by)
		SELECT 'bench-' || i, ` + at + `, 'Visitor ' || i, 'visitor' || i || '@example.com',
			CASE WHEN i % 7 = 0 THEN NULL ELSE 'Company ' || (i % 500) END, NULL,
			'Message ' || i || ': we would like to discuss building an MVP for our SaaS idea with the studio.',
			(i % 50 = 0), ` + handled + `, CASE WHEN i % 3 = 0 THEN 'ada@studio.test' END
		FROM n`)
	if err != nil {
		return err
	}
	if engine == "postgres" {
		// As autovacuum leaves a table that has settled: statistics, and a
		// visibility map that lets a count read the index alone.
		_, err = db.Exec("VACUUM ANALYZE contact_messages")
	}
	return err
}

// openStore opens the database of a store made by newStore, beside the
// server, to seed it.
func openStore(engine string, storeArgs, env []string) (*sql.DB, error) {
	if engine == "sqlite" {
		return sql.Open("sqlite", "file:"+filepath.Join(storeArgs[1], "studio.db")+"?_pragma=busy_timeout(10000)")
	}
	var dsn string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "DATABASE_URL="); ok {
			dsn = v
		}
	}
	return sql.Open("pgx", dsn)
}

// fanOut joins consoles channels on the server at base (realtime-js's
// serializer 2.0.0), sends messages contact messages 100 ms apart to the
// server at postBase (the same one, or another on the same store), and
// returns for each the time
// from its commit (the change's commit_timestamp, taken by the server
// right after the commit, to the millisecond) to its arrival at the last
// console.
func fanOut(base, postBase, token string, consoles, messages int) ([]time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(base, "http") + "/realtime/v1/websocket?vsn=2.0.0"
	type arrival struct {
		id             string
		at, commitTime time.Time
	}
	arrivals := make(chan arrival, consoles*messages)
	var wg sync.WaitGroup
	for i := range consoles {
		ws, _, err := websocket.Dial(ctx, wsURL, nil)
		if err != nil {
			return nil, err
		}
		defer ws.CloseNow()
		join := fmt.Sprintf(`["%d","%d","realtime:inbox","phx_join",{"config":{"postgres_changes":[{"event":"INSERT","schema":"public","table":"contact_messages"}]},"access_token":%q}]`, i, i, token)
		if err := ws.Write(ctx, websocket.MessageText, []byte(join)); err != nil {
			return nil, err
		}
		for range 2 { // the reply, and the system message
			if _, _, err := ws.Read(ctx); err != nil {
				return nil, err
			}
		}
		wg.Go(func() {
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				at := time.Now()
				var m [5]json.RawMessage
				var p struct {
					Data struct {
						CommitTimestamp time.Time           `json:"commit_timestamp"`
						Record          struct{ ID string } `json:"record"`
					} `json:"data"`
				}
				if json.Unmarshal(data, &m) == nil && json.Unmarshal(m[4], &p) == nil && p.Data.Record.ID != "" {
					arrivals <- arrival{p.Data.Record.ID, at, p.Data.CommitTimestamp}
				}
			}
		})
	}
	for i := range messages {
		body := fmt.Sprintf(`{"name":"Live %d","email":"live@example.com","company":null,"phone":null,"message":"A message for the fan-out."}`, i)
		resp, err := http.Post(postBase+"/functions/v1/submit-contact", "application/json", strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("contact: status %d", resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
	last, committed := map[string]time.Time{}, map[string]time.Time{}
	count := map[string]int{}
	for len(count) < messages || !allArrived(count, consoles) {
		select {
		case a := <-arrivals:
			count[a.id]++
			committed[a.id] = a.commitTime
			if a.at.After(last[a.id]) {
				last[a.id] = a.at
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("not every console got every message")
		}
	}
	lat := make([]time.Duration, 0, messages)
	for id, t := range committed {
		lat = append(lat, max(0, last[id].Sub(t)))
	}
	return lat, nil
}

func allArrived(count map[string]int, consoles int) bool {
	for _, n := range count {
		if n < consoles {
			return false
		}
	}
	return true
}
