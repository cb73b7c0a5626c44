// Package metrics holds the studio's Prometheus metrics: what the server
// counts as it works, served in the Prometheus text format on their own
// address (--metrics-addr), never on the public one.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the studio's metrics, with the Go runtime's and the process's.
// It is safe for concurrent use.
type Metrics struct {
	registry *prometheus.Registry

	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	submissions   *prometheus.CounterVec
	rateLimited   *prometheus.CounterVec
	mailFailures  prometheus.Counter
	signIns       *prometheus.CounterVec
	realtimeConns prometheus.Gauge
	realtimeLimit *prometheus.CounterVec

	// requestMetrics holds, by requestKey, the counter and histogram of a
	// route class and status, looked up in the vectors once: Request runs
	// on every request, and a vector's lookup hashes its labels.
	requestMetrics sync.Map
}

// New makes the metrics. outboxDepth, when not nil, is asked for the number
// of e-mails waiting in the outbox at each scrape.
func New(outboxDepth func(context.Context) (int, error)) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_http_requests_total", Help: "HTTP requests answered, by route class and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "studio_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route class.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
		}, []string{"route"}),
		submissions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_submissions_total", Help: "Submissions to the functions, by function and outcome (accepted, spam, or the reason of a rejection).",
		}, []string{"function", "outcome"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_rate_limited_total", Help: "Requests refused by a rate limit, by what was limited.",
		}, []string{"limit"}),
		mailFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "studio_outbox_send_failures_total", Help: "Failed attempts to send an outbox e-mail (each is retried).",
		}),
		signIns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_auth_sign_ins_total", Help: "Staff sign-in attempts, by result.",
		}, []string{"result"}),
		realtimeConns: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "studio_realtime_connections", Help: "Open realtime (websocket) connections.",
		}),
		realtimeLimit: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_realtime_limited_total", Help: "Realtime websockets refused or closed and joins refused, by the limit reached.",
		}, []string{"limit"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.submissions, m.rateLimited, m.mailFailures, m.signIns, m.realtimeConns, m.realtimeLimit,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if outboxDepth != nil {
		m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "studio_outbox_depth", Help: "E-mails in the outbox not sent yet (-1 when the store cannot say).",
		}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := outboxDepth(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	return m
}

// WatchStore adds the store's state, asked at each scrape: studio_store_up
// (1 while up says so, the store's circuit breaker closed; 0 while it is
// open) and studio_store_last_commit_timestamp_seconds (the Unix time of
// lastCommit, the last write this server committed; 0 before the first).
func (m *Metrics) WatchStore(up func() bool, lastCommit func() time.Time) {
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "studio_store_up", Help: "1 while the store answers, 0 while its circuit breaker is open (calls fail at once).",
		}, func() float64 {
			if up() {
				return 1
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "studio_store_last_commit_timestamp_seconds", Help: "Unix time of the last write this server committed to the store (0 before the first).",
		}, func() float64 {
			t := lastCommit()
			if t.IsZero() {
				return 0
			}
			return float64(t.UnixNano()) / 1e9
		}))
}

// ChangefeedListening reports, at each scrape, whether listening() (the
// store's change feed hears the other servers' changes) as
// studio_changefeed_listening, 1 or 0.
func (m *Metrics) ChangefeedListening(listening func() bool) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "studio_changefeed_listening",
		Help: "1 while this server hears the changes other servers commit (always on SQLite), 0 while its PostgreSQL LISTEN connection is down.",
	}, func() float64 {
		if listening() {
			return 1
		}
		return 0
	}))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Request counts one answered request to path with status, which took d.
func (m *Metrics) Request(path string, status int, d time.Duration) {
	key := requestKey{RouteClass(path), status}
	v, ok := m.requestMetrics.Load(key)
	if !ok {
		v, _ = m.requestMetrics.LoadOrStore(key, requestMetrics{
			count:    m.requests.WithLabelValues(key.class, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(key.class),
		})
	}
	rm := v.(requestMetrics)
	rm.count.Inc()
	rm.duration.Observe(d.Seconds())
}

type requestKey struct {
	class  string
	status int
}

type requestMetrics struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// Submission counts one submission to function with its outcome.
func (m *Metrics) Submission(function, outcome string) {
	m.submissions.WithLabelValues(function, outcome).Inc()
}

// RateLimited counts one request refused by the limit named limit.
func (m *Metrics) RateLimited(limit string) { m.rateLimited.WithLabelValues(limit).Inc() }

// MailFailed counts one failed attempt to send an outbox e-mail.
func (m *Metrics) MailFailed() { m.mailFailures.Inc() }

// SignIn counts one sign-in attempt: result is "ok" or why it failed.
func (m *Metrics) SignIn(result string) { m.signIns.WithLabelValues(result).Inc() }

// RealtimeConnected counts a realtime connection opening (+1) or closing (-1).
func (m *Metrics) RealtimeConnected(delta int) { m.realtimeConns.Add(float64(delta)) }

// RealtimeLimited counts one websocket or join refused, or websocket
// closed, because limit was reached.
func (m *Metrics) RealtimeLimited(limit string) { m.realtimeLimit.WithLabelValues(limit).Inc() }

// RouteClass groups paths into a few classes, so that the metrics' labels
// stay few whatever paths visitors ask for.
func RouteClass(path string) string {
	for _, c := range []struct{ prefix, class string }{
		{"/functions/v1/", "functions"},
		{"/auth/v1/", "auth"},
		{"/rest/v1/", "rest"},
		{"/realtime/v1/", "realtime"},
		{"/admin", "admin"},
		{"/assets/", "assets"},
		{"/healthz", "health"},
	} {
		if strings.HasPrefix(path, c.prefix) {
			return c.class
		}
	}
	return "pages"
}
