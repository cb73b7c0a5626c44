package analytics

import (
	"fmt"
	"time"
)

// Query asks for a summary: a period, the step of its series, and filters.
type Query struct {
	Since, Until time.Time
	Interval     Interval
	Filters      Filters
	Now          time.Time // for visitors now; time.Now when zero
}

// Interval is the step of a summary's series.
type Interval string

const (
	Hour Interval = "hour"
	Day  Interval = "day"
)

// Step is the interval's length.
func (i Interval) Step() time.Duration {
	if i == Day {
		return 24 * time.Hour
	}
	return time.Hour
}

// Filters narrow a summary to the visits with these values; an empty value
// is no filter. Path keeps the visits that viewed the page, and of their
// views those of the page.
type Filters struct {
	Path        string `json:"path,omitempty"`
	EntryPage   string `json:"entry_page,omitempty"`
	ExitPage    string `json:"exit_page,omitempty"`
	Source      string `json:"source,omitempty"` // Direct: none
	UTMSource   string `json:"utm_source,omitempty"`
	UTMMedium   string `json:"utm_medium,omitempty"`
	UTMCampaign string `json:"utm_campaign,omitempty"`
	Browser     string `json:"browser,omitempty"`
	OS          string `json:"os,omitempty"`
	Device      string `json:"device,omitempty"`
	Country     string `json:"country,omitempty"`
}

// MaxPeriod is the longest period a summary covers.
const MaxPeriod = 400 * 24 * time.Hour

// Check reports what is wrong with q, in words for the caller.
func (q Query) Check() error {
	switch {
	case q.Since.IsZero() || q.Until.IsZero():
		return fmt.Errorf("since and until are required")
	case !q.Until.After(q.Since):
		return fmt.Errorf("until must be after since")
	case q.Until.Sub(q.Since) > MaxPeriod:
		return fmt.Errorf("the period may be at most 400 days")
	case q.Interval != Hour && q.Interval != Day:
		return fmt.Errorf("interval must be hour or day")
	case q.Interval == Hour && q.Until.Sub(q.Since) > 31*24*time.Hour:
		return fmt.Errorf("an hourly series may cover at most 31 days")
	}
	return nil
}

// Summary is what the site did over a period: the JSON of
// "studio analytics summary --format json" (the README shows it) and of the
// console's analytics screen.
type Summary struct {
	Enabled       bool          `json:"enabled"` // false when the server counts nothing (--analytics off)
	Since         time.Time     `json:"since"`
	Until         time.Time     `json:"until"`
	Interval      Interval      `json:"interval"`
	VisitorsNow   int64         `json:"visitors_now"` // the last 5 minutes, whatever the period and filters
	Visitors      int64         `json:"visitors"`
	Visits        int64         `json:"visits"`
	Views         int64         `json:"views"`
	ViewsPerVisit float64       `json:"views_per_visit"`
	BounceRate    float64       `json:"bounce_rate"`    // visits of one view ÷ visits
	VisitDuration float64       `json:"visit_duration"` // mean, in seconds
	Pages         []PageCount   `json:"pages"`
	EntryPages    []PageCount   `json:"entry_pages"`
	ExitPages     []PageCount   `json:"exit_pages"`
	Sources       []SourceCount `json:"sources"`
	Campaigns     []CampaignRow `json:"campaigns"`
	Browsers      []Count       `json:"browsers"`
	OSes          []Count       `json:"oses"`
	Devices       []Count       `json:"devices"`
	Countries     []Count       `json:"countries"`
	Conversions   []GoalCount   `json:"conversions"`
	// ConvertedVisitors reached at least one goal (each counted once).
	ConvertedVisitors int64      `json:"converted_visitors"`
	NotCounted        NotCounted `json:"not_counted"`
	Series            []Point    `json:"series"`
	Previous          Totals     `json:"previous"` // the period of the same length just before
	// FiltersFrom, with filters, is the first day they apply to, when the
	// period begins before it: the days before are kept only as rollups,
	// which filters cannot narrow, and are left out.
	FiltersFrom *time.Time `json:"filters_from,omitempty"`
}

// Point is one step of a series.
type Point struct {
	At       time.Time `json:"at"`
	Visitors int64     `json:"visitors"`
	Views    int64     `json:"views"`
}

// Totals are a period's headline numbers and series.
type Totals struct {
	Since         time.Time `json:"since"`
	Until         time.Time `json:"until"`
	Visitors      int64     `json:"visitors"`
	Visits        int64     `json:"visits"`
	Views         int64     `json:"views"`
	BounceRate    float64   `json:"bounce_rate"`
	VisitDuration float64   `json:"visit_duration"`
	Series        []Point   `json:"series"`
}

// PageCount is a page's views and visitors (for entry and exit pages, the
// visits that began or ended there).
type PageCount struct {
	Path     string `json:"path"`
	Views    int64  `json:"views"`
	Visitors int64  `json:"visitors"`
}

// Count is the visitors of one value of a dimension (a source, a browser…).
type Count struct {
	Value    string `json:"value"`
	Visitors int64  `json:"visitors"`
}

// SourceCount is the visitors a source (a referring site, a campaign's
// source, or Direct) brought.
type SourceCount struct {
	Source   string `json:"source"`
	Visitors int64  `json:"visitors"`
}

// CampaignRow is the visitors of one campaign.
type CampaignRow struct {
	Source   string `json:"utm_source"`
	Medium   string `json:"utm_medium"`
	Name     string `json:"utm_campaign"`
	Visitors int64  `json:"visitors"`
}

// GoalCount is a goal's conversions, the visitors who reached it and their
// share of all visitors.
type GoalCount struct {
	Goal     Goal    `json:"goal"`
	Count    int64   `json:"count"`
	Visitors int64   `json:"visitors"`
	Rate     float64 `json:"rate"`
}

// NotCounted tallies the requests not counted over the period, by reason.
type NotCounted struct {
	Bot              int64 `json:"bot"`
	GPC              int64 `json:"gpc"`
	DNT              int64 `json:"dnt"`
	PrefetchNotShown int64 `json:"prefetch_not_shown"`
	Dropped          int64 `json:"dropped"`
}

// Add adds n requests not counted for reason r.
func (n *NotCounted) Add(r Reason, count int64) {
	switch r {
	case ReasonBot:
		n.Bot += count
	case ReasonGPC:
		n.GPC += count
	case ReasonDNT:
		n.DNT += count
	case ReasonPrefetchNotShown:
		n.PrefetchNotShown += count
	case ReasonDropped:
		n.Dropped += count
	}
}

// Direct is the source of visits no other site or campaign referred.
const Direct = "Direct"
