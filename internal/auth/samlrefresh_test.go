package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
	"github.com/google/uuid"

	"studio/internal/auth/federated"
	"studio/internal/staff"
	"studio/internal/store/storetest"
)

// TestSAMLMetadataStale: metadata is fetched again once its validUntil has
// passed or its cacheDuration has run out, and, naming neither, after a day.
func TestSAMLMetadataStale(t *testing.T) {
	fetched := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		idp   saml.EntityDescriptor
		after time.Duration
		stale bool
	}{
		{"neither, within a day", saml.EntityDescriptor{}, 23 * time.Hour, false},
		{"neither, after a day", saml.EntityDescriptor{}, 25 * time.Hour, true},
		{"cacheDuration not run out", saml.EntityDescriptor{CacheDuration: time.Hour}, 59 * time.Minute, false},
		{"cacheDuration run out", saml.EntityDescriptor{CacheDuration: time.Hour}, 61 * time.Minute, true},
		{"validUntil ahead", saml.EntityDescriptor{ValidUntil: fetched.Add(72 * time.Hour)}, 48 * time.Hour, false},
		{"validUntil passed", saml.EntityDescriptor{ValidUntil: fetched.Add(time.Hour)}, 2 * time.Hour, true},
		{"validUntil passed before cacheDuration runs out", saml.EntityDescriptor{ValidUntil: fetched.Add(time.Hour), CacheDuration: 48 * time.Hour}, 2 * time.Hour, true},
	}
	for _, tt := range tests {
		if got := federated.SAMLMetadataStale(&tt.idp, fetched, fetched.Add(tt.after)); got != tt.stale {
			t.Errorf("%s: stale = %v", tt.name, got)
		}
	}
}

// TestSAMLMetadataRefresh: a provider added from a metadata URL takes up
// the IdP's new metadata (a new signing key) once the stored one is stale,
// for every server (it is stored); metadata of another entity, or none,
// leaves the stored metadata in use.
func TestSAMLMetadataRefresh(t *testing.T) {
	for _, engine := range storetest.Engines() {
		t.Run(engine.Name, func(t *testing.T) { testSAMLMetadataRefresh(t, engine) })
	}
}

func testSAMLMetadataRefresh(t *testing.T, engine storetest.Engine) {
	f := &samlFixture{fixture: newFixture(t, engine)}
	f.idp, f.other = idps(t)
	// The IdP's metadata server publishes, at each request, what publish
	// gives for the time then (or fails with status).
	var (
		mu      sync.Mutex
		publish = f.idp.metadataAt
		status  = http.StatusOK
		fetches int
	)
	serve := func(with func(testing.TB, time.Time) []byte, code int) {
		mu.Lock()
		defer mu.Unlock()
		publish, status = with, code
	}
	fetched := func() int {
		mu.Lock()
		defer mu.Unlock()
		return fetches
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fetches++
		w.WriteHeader(status)
		_, _ = w.Write(publish(t, f.clock.Now()))
	}))
	defer srv.Close()
	p, err := federated.NewSAMLProvider(uuid.NewString(), f.idp.metadataAt(t, f.clock.Now()), srv.URL+"/metadata", []string{"studio.test"}, "", f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddProvider(context.Background(), p, staff.AuditEntry{}); err != nil {
		t.Fatal(err)
	}
	stored := func() []byte {
		t.Helper()
		got, err := f.db.FindProvider(context.Background(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		var c federated.SAMLConfig
		if err := json.Unmarshal(got.Config, &c); err != nil {
			t.Fatal(err)
		}
		return []byte(c.MetadataXML)
	}
	signIn := func(signer testIdP) string {
		t.Helper()
		requestID, relayState := f.startImplicit()
		return fragment(t, f.post(newSAMLResponse(signer, requestID, f.clock.Now()).encode(t), relayState)).Get("access_token")
	}

	// The IdP moves to a new key and publishes it.
	serve(f.other.metadataAt, http.StatusOK)
	if signIn(f.idp) == "" || fetched() != 0 {
		t.Fatalf("fresh metadata: fetched %d times", fetched())
	}
	f.clock.Advance(25 * time.Hour) // past the cacheDuration (a day)
	if signIn(f.other) == "" {
		t.Fatalf("a day later, a response signed with the new key was refused: %q", f.lastLoginFailure())
	}
	rotated := stored()
	if n := fetched(); n != 1 || !bytes.Contains(rotated, []byte(base64.StdEncoding.EncodeToString(f.other.cert.Raw))) {
		t.Errorf("fetched %d times, want once, and stored", n)
	}
	if signIn(f.other) == "" || fetched() != 1 {
		t.Errorf("fetched again while fresh: %d", fetched())
	}
	if signIn(f.idp) != "" {
		t.Error("a response signed with the old key still signs in")
	}

	// Metadata of another entity, or an IdP that fails, changes nothing;
	// while it fails, it is asked again at most every few minutes.
	const samlRetry = 5*time.Minute + time.Second // auth's samlMetadataRetry, and a second
	for i, bad := range []struct {
		name    string
		publish func(testing.TB, time.Time) []byte
		code    int
	}{
		{"another entity", func(t testing.TB, now time.Time) []byte {
			return bytes.Replace(f.idp.metadataAt(t, now), []byte(`entityID="`+idpEntityID+`"`), []byte(`entityID="https://elsewhere.test/metadata"`), 1)
		}, http.StatusOK},
		{"not metadata", func(testing.TB, time.Time) []byte { return []byte("<html></html>") }, http.StatusOK},
		{"failing", func(testing.TB, time.Time) []byte { return nil }, http.StatusInternalServerError},
	} {
		serve(bad.publish, bad.code)
		if i == 0 {
			f.clock.Advance(24*time.Hour + time.Minute) // the cache has run out; the stored metadata is still valid
		} else {
			f.clock.Advance(samlRetry)
		}
		before := fetched()
		if signIn(f.other) == "" || signIn(f.other) == "" {
			t.Errorf("%s: sign-in with the stored metadata failed: %q", bad.name, f.lastLoginFailure())
		}
		if n := fetched() - before; n != 1 || !bytes.Equal(stored(), rotated) {
			t.Errorf("%s: fetched %d times, want once; stored metadata changed: %v", bad.name, n, !bytes.Equal(stored(), rotated))
		}
		f.clock.Advance(samlRetry)
		signIn(f.other)
		if n := fetched() - before; n != 2 {
			t.Errorf("%s: %d fetches once the retry's wait is over, want 2", bad.name, n)
		}
	}
}
