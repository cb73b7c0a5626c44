package federated

import (
	"context"
	"encoding/json"

	"github.com/crewjam/saml"

	"studio/internal/api"
	"studio/internal/staff"
)

// samlSettings returns the settings and metadata of the SAML provider p.
// Metadata added from a URL is fetched again there once stale
// (samlMetadataStale), so that an IdP's new signing certificate is taken
// up, and stored for every server; when that fails, or the new metadata is
// not of the same entity, the stored metadata is used, the failure logged,
// and the fetch tried again after samlMetadataRetry.
func (h *Handlers) samlSettings(ctx context.Context, p staff.Provider) (SAMLConfig, *saml.EntityDescriptor, error) {
	config, idp, err := SAMLProviderConfig(p)
	if err != nil || config.MetadataURL == "" {
		return config, idp, err
	}
	fetchedAt := config.FetchedAt
	if fetchedAt.IsZero() {
		fetchedAt = p.CreatedAt
	}
	now := h.cfg.Now()
	if !SAMLMetadataStale(idp, fetchedAt, now) || !h.samlMeta.Try(p.ID, now) {
		return config, idp, nil
	}
	fresh, freshIdP, err := RefetchSAMLMetadata(ctx, config, p.EntityID, now)
	if err != nil {
		h.cfg.Logger.Warn("auth: SAML metadata not refreshed, the stored metadata is used", "provider", p.Name, "url", config.MetadataURL, "err", err)
		return config, idp, nil
	}
	raw, err := json.Marshal(fresh)
	if err != nil {
		return config, idp, err
	}
	sctx, cancel := context.WithTimeout(ctx, api.StoreTimeout)
	defer cancel()
	if err := h.store.UpdateProviderConfig(sctx, p.ID, raw); err != nil {
		h.cfg.Logger.Warn("auth: refreshed SAML metadata not stored", "provider", p.Name, "err", err)
	} else {
		h.cfg.Logger.Info("auth: SAML metadata refreshed", "provider", p.Name, "url", config.MetadataURL)
	}
	return fresh, freshIdP, nil
}
