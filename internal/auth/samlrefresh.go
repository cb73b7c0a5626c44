package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/crewjam/saml"

	"studio/internal/api"
	"studio/internal/staff"
)

// samlMetadataRefresh is how long metadata fetched from a URL is used when
// it names neither a validUntil nor a cacheDuration, as GoTrue does.
const samlMetadataRefresh = 24 * time.Hour

// samlMetadataRetry is how long a server waits before it fetches a
// provider's metadata again after trying (one that fails, or publishes
// metadata already stale, is not asked at each sign-in).
const samlMetadataRetry = 5 * time.Minute

// samlFetches is when this server last tried to fetch each provider's
// metadata, by provider id. Its zero value is ready to use.
type samlFetches struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// try tells whether the metadata of provider id may be fetched at now, and
// if so notes the attempt.
func (f *samlFetches) try(id string, now time.Time) bool {
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

// samlMetadataStale tells whether metadata fetched at fetchedAt is to be
// fetched again at now: its validUntil has passed, its cacheDuration has
// run out, or, naming neither, it is older than samlMetadataRefresh.
func samlMetadataStale(idp *saml.EntityDescriptor, fetchedAt, now time.Time) bool {
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

// samlSettings returns the settings and metadata of the SAML provider p.
// Metadata added from a URL is fetched again there once stale
// (samlMetadataStale), so that an IdP's new signing certificate is taken
// up, and stored for every server; when that fails, or the new metadata is
// not of the same entity, the stored metadata is used, the failure logged,
// and the fetch tried again after samlMetadataRetry.
func (s *Service) samlSettings(ctx context.Context, p staff.Provider) (SAMLConfig, *saml.EntityDescriptor, error) {
	config, idp, err := samlProvider(p)
	if err != nil || config.MetadataURL == "" {
		return config, idp, err
	}
	fetchedAt := config.FetchedAt
	if fetchedAt.IsZero() {
		fetchedAt = p.CreatedAt
	}
	now := s.cfg.Now()
	if !samlMetadataStale(idp, fetchedAt, now) || !s.samlMeta.try(p.ID, now) {
		return config, idp, nil
	}
	fresh, freshIdP, err := refetchSAMLMetadata(ctx, config, p.EntityID, now)
	if err != nil {
		s.cfg.Logger.Warn("auth: SAML metadata not refreshed, the stored metadata is used", "provider", p.Name, "url", config.MetadataURL, "err", err)
		return config, idp, nil
	}
	raw, err := json.Marshal(fresh)
	if err != nil {
		return config, idp, err
	}
	sctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	defer cancel()
	if err := s.store.UpdateProviderConfig(sctx, p.ID, raw); err != nil {
		s.cfg.Logger.Warn("auth: refreshed SAML metadata not stored", "provider", p.Name, "err", err)
	} else {
		s.cfg.Logger.Info("auth: SAML metadata refreshed", "provider", p.Name, "url", config.MetadataURL)
	}
	return fresh, freshIdP, nil
}

// refetchSAMLMetadata fetches config's metadata again; it must be valid and
// of entityID.
func refetchSAMLMetadata(ctx context.Context, config SAMLConfig, entityID string, now time.Time) (SAMLConfig, *saml.EntityDescriptor, error) {
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
