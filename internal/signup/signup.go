// Package signup is the two e-mail sign-ups of the site: the waitlist of a
// coming-soon product and the resources newsletter. Both are idempotent:
// signing up again keeps one entry and still succeeds.
package signup

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"studio/internal/form"
)

//go:embed waitlist-products.json
var productsJSON []byte

// WaitlistProducts are the ids of the products that have a waitlist: those
// whose status is coming-soon in web/app/content/products.ts, from which
// waitlist-products.json is generated.
var WaitlistProducts = mustProducts(productsJSON)

func mustProducts(b []byte) []string {
	var doc struct {
		ProductIDs []string `json:"productIds"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.ProductIDs) == 0 {
		panic(fmt.Sprintf("signup: waitlist-products.json: %v", err))
	}
	return doc.ProductIDs
}

// WaitlistEntry is one address on one product's waitlist.
type WaitlistEntry struct {
	ProductID string    `json:"product_id"`
	Email     string    `json:"email"`
	JoinedAt  time.Time `json:"joined_at"`
}

// Subscriber is one address on the newsletter list.
type Subscriber struct {
	Email        string    `json:"email"`
	SubscribedAt time.Time `json:"subscribed_at"`
}

// Store keeps sign-ups. Both methods report whether a new entry was made;
// an address already there is not an error.
type Store interface {
	JoinWaitlist(ctx context.Context, e WaitlistEntry) (created bool, err error)
	Subscribe(ctx context.Context, s Subscriber) (created bool, err error)
}

// DecodeWaitlist validates the fields of join-waitlist (form.JSON or
// form.URLEncoded of its body): {"email": ..., "productId": ...}. It returns
// a *form.Error for bad input, including a product that has no waitlist.
func DecodeWaitlist(f form.Fields) (WaitlistEntry, *form.Error) {
	rs := form.Rules.Signup
	v, fe := form.Decode(f, []form.Rule{rs.Email, rs.ProductID})
	if fe != nil {
		return WaitlistEntry{}, fe
	}
	id := *v[rs.ProductID.Field]
	if !slices.Contains(WaitlistProducts, id) {
		return WaitlistEntry{}, &form.Error{Message: rs.ProductID.Message, Fields: map[string]string{rs.ProductID.Field: rs.ProductID.Message}}
	}
	return WaitlistEntry{ProductID: id, Email: canonicalEmail(*v[rs.Email.Field])}, nil
}

// DecodeNewsletter validates the fields of subscribe-newsletter (form.JSON
// or form.URLEncoded of its body): {"email": ...}. It returns a *form.Error
// for bad input.
func DecodeNewsletter(f form.Fields) (Subscriber, *form.Error) {
	rs := form.Rules.Signup
	v, fe := form.Decode(f, []form.Rule{rs.Email})
	if fe != nil {
		return Subscriber{}, fe
	}
	return Subscriber{Email: canonicalEmail(*v[rs.Email.Field])}, nil
}

// canonicalEmail lower-cases an address so that one person signing up as
// Ada@Example.com and ada@example.com is one entry.
func canonicalEmail(s string) string { return strings.ToLower(s) }

// Service takes sign-ups.
type Service struct {
	Store Store
	Now   func() time.Time // defaults to time.Now
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Microsecond)
	}
	return time.Now().UTC().Truncate(time.Microsecond)
}

// JoinWaitlist puts the address on the product's waitlist, once.
func (s *Service) JoinWaitlist(ctx context.Context, e WaitlistEntry) error {
	e.JoinedAt = s.now()
	if _, err := s.Store.JoinWaitlist(ctx, e); err != nil {
		return fmt.Errorf("join waitlist: %w", err)
	}
	return nil
}

// Subscribe puts the address on the newsletter list, once.
func (s *Service) Subscribe(ctx context.Context, sub Subscriber) error {
	sub.SubscribedAt = s.now()
	if _, err := s.Store.Subscribe(ctx, sub); err != nil {
		return fmt.Errorf("subscribe to newsletter: %w", err)
	}
	return nil
}
