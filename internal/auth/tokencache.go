package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// tokenCache remembers access tokens that verified, until they expire, so
// a token sent again skips the ECDSA signature check (which costs more than
// the rest of a request). Only the exact token string verified before
// hits; its session is still read from the store on every request.
type tokenCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]AccessClaims
}

// tokenCacheSize bounds the cache: far more tokens than staff use at once.
const tokenCacheSize = 4096

func (c *tokenCache) get(token string, now time.Time) (AccessClaims, bool) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	claims, ok := c.m[key]
	if ok && !now.Before(time.Unix(claims.ExpiresAt, 0)) {
		delete(c.m, key)
		return AccessClaims{}, false
	}
	return claims, ok
}

func (c *tokenCache) put(token string, claims AccessClaims, now time.Time) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[[sha256.Size]byte]AccessClaims)
	}
	if len(c.m) >= tokenCacheSize {
		for k, v := range c.m {
			if !now.Before(time.Unix(v.ExpiresAt, 0)) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= tokenCacheSize {
			clear(c.m)
		}
	}
	c.m[key] = claims
}
