package analytics

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"time"
)

// dayOf is t's UTC day, the key of its salt and of the tallies.
func dayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// newSalt is a random salt for a day the store has none for yet; the store
// keeps the first one written, so every instance hashes with the same.
func newSalt() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}

// visitorHash is a visitor of a day: a keyed hash of the site, the client's
// address and its user agent, under the day's salt. Once the salt is
// deleted (after the next day) no one can tell whose it was, or link it to
// the same visitor's hash of another day.
func visitorHash(salt []byte, site string, addr netip.Addr, userAgent string) string {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(site))
	m.Write([]byte{0})
	a := addr.As16()
	m.Write(a[:])
	m.Write([]byte(userAgent))
	return hex.EncodeToString(m.Sum(nil)[:8])
}
