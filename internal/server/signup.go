package server

import (
	"context"
	"net/http"
	"net/url"

	"studio/internal/analytics"
	"studio/internal/form"
	"studio/internal/signup"
)

// The sign-up forms' fields, each with its problem page.
var (
	waitlistProblems   = []fieldProblem{{form.Rules.Signup.Email.Field, "signup-email"}, {form.Rules.Signup.ProductID.Field, "product"}}
	newsletterProblems = waitlistProblems[:1]
)

// signedUp is the 200 answer of the sign-ups, new or repeated alike (so the
// answer does not tell who is on a list).
type signedUp struct {
	OK bool `json:"ok"`
}

// handleWaitlistJoin handles POST /functions/v1/join-waitlist:
// {"email", "productId"} for a coming-soon product. Joining twice keeps one
// entry and answers 200 again. A form post is sent on to
// /products/{productId}/joined.
func (f *functions) handleWaitlistJoin(w http.ResponseWriter, r *http.Request) {
	serve(f, w, r, function[signup.WaitlistEntry]{
		name: "join-waitlist", problems: waitlistProblems, decode: fieldsOnly(signup.DecodeWaitlist), run: f.joinWaitlist, goal: analytics.GoalWaitlist,
	})
}

// handleNewsletterSubscribe handles POST /functions/v1/subscribe-newsletter:
// {"email"}. Subscribing twice keeps one entry and answers 200 again. A form
// post is sent on to /resources/subscribed.
func (f *functions) handleNewsletterSubscribe(w http.ResponseWriter, r *http.Request) {
	serve(f, w, r, function[signup.Subscriber]{
		name: "subscribe-newsletter", problems: newsletterProblems, decode: fieldsOnly(signup.DecodeNewsletter), run: f.subscribeNewsletter, goal: analytics.GoalNewsletter,
	})
}

func (f *functions) joinWaitlist(ctx context.Context, e signup.WaitlistEntry) (result, error) {
	if f.signup == nil {
		return result{}, errNoStore
	}
	if err := f.signup.JoinWaitlist(ctx, e); err != nil {
		return result{}, err
	}
	// The decoder admits only the known products' ids: the path holds no
	// visitor's text.
	return signedUpTo("/products/" + url.PathEscape(e.ProductID) + "/joined"), nil
}

func (f *functions) subscribeNewsletter(ctx context.Context, s signup.Subscriber) (result, error) {
	if f.signup == nil {
		return result{}, errNoStore
	}
	if err := f.signup.Subscribe(ctx, s); err != nil {
		return result{}, err
	}
	return signedUpTo("/resources/subscribed"), nil
}

// signedUpTo is a sign-up's success, sending a form post on to location.
func signedUpTo(location string) result {
	return result{answer: signedUp{OK: true}, location: location}
}
