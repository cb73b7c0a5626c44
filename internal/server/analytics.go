package server

import (
	"net/http"

	"studio/internal/analytics"
)

// handleSeen answers analytics.SeenPath, fetched by every page shown: it
// counts the view, or, with analytics off, only answers.
func handleSeen(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if d.Analytics == nil {
			analytics.WritePixel(w, r)
			return
		}
		d.Analytics.Seen(w, r, clientIP(r, d.Functions.TrustedProxies))
	}
}

// servedPages is the site, telling the counter of each page it answers:
// only such a request knows the site that referred its visitor.
func servedPages(d Deps) http.Handler {
	if d.Analytics == nil {
		return d.Site
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Referer") != "" || r.Header.Get("Sec-Purpose") != "" {
			d.Analytics.Served(r, clientIP(r, d.Functions.TrustedProxies))
		}
		d.Site.ServeHTTP(w, r)
	})
}

// countedDownloads is the storage service for the public downloads bucket,
// counting each template downloaded whole as a goal.
func countedDownloads(d Deps) http.Handler {
	if d.Analytics == nil {
		return http.HandlerFunc(d.Storage.ServePublic)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusRecorder{ResponseWriter: w}
		d.Storage.ServePublic(sw, r)
		if sw.status == http.StatusOK && r.Method == http.MethodGet {
			d.Analytics.Converted(r, clientIP(r, d.Functions.TrustedProxies), analytics.GoalDownload)
		}
	})
}
