package server

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// ReadyCheck is one part of what /readyz asks: Check returns nil while the
// part is up, else why it is not.
type ReadyCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// Readiness limits: each check gets readyTimeout, and an answer is reused
// for readyCacheFor, so that a flood of /readyz asks the store at most a
// few times a second and a part that is back is seen within a second.
const (
	readyTimeout  = time.Second
	readyCacheFor = 250 * time.Millisecond
)

// readiness answers GET /readyz from its checks, asking them at most once
// per readyCacheFor however many ask at once.
type readiness struct {
	checks []ReadyCheck

	mu      sync.Mutex // held while the checks run: one run at a time
	at      time.Time
	answer  map[string]string // part → "ok" or why it is down
	allGood bool
}

// ServeHTTP answers 200 when every part is up, else 503; the JSON body
// names each part and its state, e.g. {"status":"unavailable","store":"ok",
// "changefeed":"not listening for other servers' changes"}.
func (rd *readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	answer, ok := rd.check(r.Context())
	body := map[string]string{"status": "ok"}
	for k, v := range answer {
		body[k] = v
	}
	status := http.StatusOK
	if !ok {
		body["status"] = "unavailable"
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func (rd *readiness) check(ctx context.Context) (map[string]string, bool) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if rd.answer != nil && time.Since(rd.at) < readyCacheFor {
		return rd.answer, rd.allGood
	}
	answer, allGood := map[string]string{}, true
	for _, c := range rd.checks {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyTimeout)
		err := c.Check(cctx)
		cancel()
		answer[c.Name] = "ok"
		if err != nil {
			answer[c.Name], allGood = err.Error(), false
		}
	}
	rd.answer, rd.allGood, rd.at = answer, allGood, time.Now()
	return answer, allGood
}
