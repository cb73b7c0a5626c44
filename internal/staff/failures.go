package staff

import "time"

// Both lockouts, of a person's mailed or texted codes (codelock.go) and of
// a TOTP factor (factor.go), refuse every code, right or wrong, once
// MaxFailures wrong codes were typed within FailureWindow, until that
// window ends. The window begins with its first wrong code.
const (
	MaxFailures   = 10
	FailureWindow = time.Hour
)

// Failures are the wrong codes counted against one person's codes, or one
// factor, in its current window.
type Failures struct {
	Count int
	Since time.Time // the window's first wrong code; zero for none
}

// LockedUntil returns, when the codes are locked out at now, the time they
// are accepted again; otherwise the zero time.
func (f Failures) LockedUntil(now time.Time) time.Time {
	end := f.Since.Add(FailureWindow)
	if f.Count >= MaxFailures && now.Before(end) {
		return end
	}
	return time.Time{}
}

// Add returns the failures once a wrong code at now is counted (in a new
// window when the last one ended), and whether that code locks them out.
// (The store counts a person's codes in one SQL statement instead, so
// that concurrent tries each count.)
func (f Failures) Add(now time.Time) (Failures, bool) {
	if !now.Before(f.Since.Add(FailureWindow)) {
		f = Failures{Since: now}
	}
	f.Count++
	return f, f.Count == MaxFailures
}
