package server

import (
	"fmt"
	"slices"

	"studio/internal/form"
)

// The reasons a native form post fails for besides its fields (see
// fieldProblem): each is a key of rules.json "problems", whose page the web
// build prerenders at /forms/problem/{reason}.
const (
	problemInvalid     = form.ProblemInvalid // undecodable, unknown or repeated field, not UTF-8
	problemTooLarge    = "too-large"
	problemRateLimited = "rate-limited"
	problemUnavailable = "unavailable" // the 503s
	problemInternal    = "internal"    // the 500s
)

// fieldProblem is the reason a native form post fails for when field is bad.
// Each function lists its fields in the order their problems are reported
// (the rules' order): the first bad one is the post's reason.
type fieldProblem struct{ field, reason string }

// problemReasons are every reason a native form post can be redirected for.
// Each must be a key of rules.json "problems" (the web build makes a page
// only for those): the server does not start otherwise.
var problemReasons = mustProblems()

func mustProblems() []string {
	reasons := []string{problemInvalid, problemTooLarge, problemRateLimited, problemUnavailable, problemInternal, problemCaptcha}
	for _, fps := range [][]fieldProblem{contactProblems, waitlistProblems, newsletterProblems} {
		for _, fp := range fps {
			if !slices.Contains(reasons, fp.reason) {
				reasons = append(reasons, fp.reason)
			}
		}
	}
	for _, r := range reasons {
		if _, ok := form.Rules.Problems[r]; !ok {
			panic(fmt.Sprintf("server: reason %q is not a key of problems in internal/form/rules.json", r))
		}
	}
	return reasons
}

// problemPath is the page a native form post that failed for reason is
// redirected to. It holds only the reason, never a submitted value.
func problemPath(reason string) string {
	if !slices.Contains(problemReasons, reason) { // a programming error; mustProblems vouches for the rest
		reason = problemInternal
	}
	return "/forms/problem/" + reason
}
