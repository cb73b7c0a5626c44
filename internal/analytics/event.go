package analytics

import (
	"net/netip"
	"time"
)

// Goal is a conversion the site counts.
type Goal string

const (
	GoalContact    Goal = "contact_message_sent"
	GoalWaitlist   Goal = "waitlist_joined"
	GoalNewsletter Goal = "newsletter_subscribed"
	GoalDownload   Goal = "template_downloaded"
	GoalSchedule   Goal = "scheduling_link_followed"
	GoalDemo       Goal = "demo_opened"
)

// Goals are every goal, in the order the summary lists them.
var Goals = []Goal{GoalContact, GoalWaitlist, GoalNewsletter, GoalDownload, GoalSchedule, GoalDemo}

// Reason is why a request was not counted; only tallied, per day.
type Reason string

const (
	ReasonBot              Reason = "bot"
	ReasonGPC              Reason = "gpc"
	ReasonDNT              Reason = "dnt"
	ReasonPrefetchNotShown Reason = "prefetch_not_shown"
	ReasonDropped          Reason = "dropped"
)

// Reasons are every reason, in the order the summary lists them.
var Reasons = []Reason{ReasonBot, ReasonGPC, ReasonDNT, ReasonPrefetchNotShown, ReasonDropped}

// event is what a request told the counter, held in memory until the next
// flush. Its address and user agent never leave the process: the flush
// turns them into the visitor's hash and the user agent's classes.
type event struct {
	at        time.Time
	goal      Goal // "" for a view
	path      string
	source    string // the referring host, "" when none is known
	campaign  Campaign
	addr      netip.Addr
	userAgent string
}

// Campaign is a page's utm_source, utm_medium and utm_campaign.
type Campaign struct {
	Source, Medium, Name string
}

// View is a page shown, as the store keeps it.
type View struct {
	Visitor  string // the day's keyed hash, hex
	At       time.Time
	Path     string
	Source   string // the referring host, or the campaign's source; "" is direct
	Campaign Campaign
	Browser  string
	OS       string
	Device   string // phone, tablet, desktop or tv
	Country  string // ISO 3166 code, "" when unknown
}

// Conversion is a goal reached by a visitor.
type Conversion struct {
	Visitor string
	At      time.Time
	Goal    Goal
}

// Batch is what one flush writes, in one transaction.
type Batch struct {
	Views       []View
	Conversions []Conversion
	// NotCounted tallies requests not counted, by the UTC day (2006-01-02)
	// and reason.
	NotCounted map[DayReason]int64
	// At is when the batch was made: the time analytics_live is touched
	// with, which tells the console the counts changed.
	At time.Time
}

// DayReason keys the tally of requests not counted.
type DayReason struct {
	Day    string
	Reason Reason
}
