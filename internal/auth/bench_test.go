package auth_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"studio/internal/auth"
	"studio/internal/staff"
)

// BenchmarkGetUser is GET /auth/v1/user with a valid token, on SQLite:
// what make bench-auth measures over HTTP, without the network.
func BenchmarkGetUser(b *testing.B) {
	f := newFixture(b, sqlite())
	session := f.signIn()
	auth := "Bearer " + session["access_token"].(string)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequest("GET", "/auth/v1/user", nil)
			r.Header.Set("Authorization", auth)
			w := httptest.NewRecorder()
			f.svc.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatalf("GET /user = %d", w.Code)
			}
		}
	})
}

// BenchmarkRefresh is the refresh_token grant on SQLite, each goroutine
// rotating its own session's token.
func BenchmarkRefresh(b *testing.B) {
	f := newFixture(b, sqlite(), func(c *auth.Config) { c.Now = time.Now })
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		f.mu.Lock()
		code, _, c, err := staff.NewCode(f.ada.ID, staff.PurposeSignIn, time.Now(), time.Minute)
		if err == nil {
			err = f.db.CreateCode(context.Background(), c, staff.AuditEntry{})
		}
		r := f.do("POST", "/auth/v1/verify", `{"email":"ada@studio.test","token":"`+code+`","type":"email"}`)
		f.mu.Unlock()
		if err != nil || r.status != 200 {
			b.Fatalf("sign-in = %v, %d %s", err, r.status, r.raw)
		}
		token := r.body["refresh_token"].(string)
		for pb.Next() {
			r := httptest.NewRequest("POST", "/auth/v1/token?grant_type=refresh_token", strings.NewReader(`{"refresh_token":"`+token+`"}`))
			w := httptest.NewRecorder()
			f.svc.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatalf("refresh = %d %s", w.Code, w.Body)
			}
			var answer struct {
				RefreshToken string `json:"refresh_token"`
			}
			_ = json.Unmarshal(w.Body.Bytes(), &answer)
			token = answer.RefreshToken
		}
	})
}
