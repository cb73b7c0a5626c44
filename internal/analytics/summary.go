package analytics

import "time"

// Summary is what the site did over a period: the JSON of
// "studio analytics summary --format json" (the README shows it) and of the
// console's analytics screen.
type Summary struct {
	Since         time.Time     `json:"since"`
	Until         time.Time     `json:"until"`
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
	NotCounted    NotCounted    `json:"not_counted"`
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
