package federated

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crewjam/saml"
)

// samlMetadataRefresh is how long metadata fetched from a URL is used when
// it names neither a validUntil nor a cacheDuration, as GoTrue does.
const samlMetadataRefresh = 24 * time.Hour

// samlMetadataRetry is how long a server waits before it fetches a
// provider's metadata again after trying (one that fails, or publishes
// metadata already stale, is not asked at each sign-in).
const samlMetadataRetry = 5 * time.Minute

// SAMLFetches is when this server last tried to fetch each provider's
// metadata, by provider id. Its zero value is ready to use.
type SAMLFetches struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// Try tells whether the metadata of provider id may be fetched at now, and
// if so notes the attempt.
func (f *SAMLFetches) Try(id string, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if at, ok := f.last[id]; ok && now.Sub(at) < samlMetadataRetry {
		return false
	}
	if f.last == nil {
		f.last = map[string]time.Time{}
	}
	f.last[id] = now
	return true
}

// SAMLMetadataStale tells whether metadata fetched at fetchedAt is to be
// fetched again at now: its validUntil has passed, its cacheDuration has
// run out, or, naming neither, it is older than samlMetadataRefresh.
func SAMLMetadataStale(idp *saml.EntityDescriptor, fetchedAt, now time.Time) bool {
	switch {
	case !idp.ValidUntil.IsZero() && now.After(idp.ValidUntil):
		return true
	case idp.CacheDuration > 0:
		return now.After(fetchedAt.Add(idp.CacheDuration))
	case idp.ValidUntil.IsZero():
		return now.After(fetchedAt.Add(samlMetadataRefresh))
	}
	return false
}

// RefetchSAMLMetadata fetches config's metadata again; it must be valid and
// of entityID.
func RefetchSAMLMetadata(ctx context.Context, config SAMLConfig, entityID string, now time.Time) (SAMLConfig, *saml.EntityDescriptor, error) {
	raw, err := FetchSAMLMetadata(ctx, config.MetadataURL)
	if err != nil {
		return config, nil, err
	}
	idp, err := ParseSAMLMetadata(raw)
	if err != nil {
		return config, nil, err
	}
	if idp.EntityID != entityID {
		return config, nil, fmt.Errorf("the metadata is now of entity %q, not %q: remove the provider and add it again to change it", idp.EntityID, entityID)
	}
	config.MetadataXML, config.FetchedAt = string(raw), now
	return config, idp, nil
}
