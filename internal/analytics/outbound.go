package analytics

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"net/netip"
)

// OutboundPath is where the site's links to its outbound targets go:
// /go/schedule, /go/demo. Each answers a redirect to its fixed target
// (outbound.json, which the web's content imports too) and counts its goal.
const OutboundPath = "/go/"

//go:embed outbound.json
var outboundJSON []byte

// outboundGoals are the goal of each outbound target; outbound_test checks
// that outbound.json names these and no other.
var outboundGoals = map[string]Goal{"schedule": GoalSchedule, "demo": GoalDemo}

// Outbound are the targets of OutboundPath, by name.
var Outbound = func() map[string]string {
	targets := map[string]string{}
	if err := json.Unmarshal(outboundJSON, &targets); err != nil {
		panic("outbound.json: " + err.Error()) // embedded: a broken file fails every test
	}
	return targets
}()

// FollowOutbound answers OutboundPath+name: a redirect to the target of
// name, never to an address the request names; and counts its goal with c
// (when not nil), unless the request is a prefetch.
func FollowOutbound(c *Counter, w http.ResponseWriter, r *http.Request, name string, addr netip.Addr) {
	target, ok := Outbound[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store") // each click is counted
	http.Redirect(w, r, target, http.StatusFound)
	if c != nil && r.Method == http.MethodGet && !isPrefetch(r) {
		c.Converted(r, addr, outboundGoals[name])
	}
}
