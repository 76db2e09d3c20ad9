package edge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/guard"
	"github.com/vurb-go/vurb/servercard"
)

// ServerCard is vurb.WithServerCard; see its documentation there.
func ServerCard(o servercard.Options) ServeOption {
	o.Icons = slices.Clone(o.Icons)
	for i := range o.Icons {
		o.Icons[i].Sizes = slices.Clone(o.Icons[i].Sizes)
	}
	if o.Repository != nil {
		r := *o.Repository
		o.Repository = &r
	}
	return func(c *serveConfig) { c.httpSetting("WithServerCard"); c.card = &o }
}

// cardServer serves an app's server card (SEP-2127) at its endpoint's
// path plus /server-card, and its host's catalog when asked: public
// documents any origin may read (CORS), cached and revalidated by ETag,
// outside bearer auth but behind the Host guard, so that a rebound name
// reaches no more than it would of the endpoint.
type cardServer struct {
	path      string
	card      servedDoc
	catalog   *servedDoc // nil unless Options.Catalog
	hosts     map[string]bool
	localhost bool
}

// servedDoc is one document, encoded once, with its entity tag.
type servedDoc struct {
	body      []byte
	etag      string
	mediaType string
}

func newServedDoc(v any, mediaType string) servedDoc {
	body, err := json.Marshal(v)
	if err != nil {
		panic("vurb: server card: " + err.Error())
	}
	sum := sha256.Sum256(body)
	return servedDoc{body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`, mediaType: mediaType}
}

// cardServerFor builds the card of the app a serves under cfg, or nil
// when it does not opt in; a card that cannot be derived panics, naming
// what to change.
func (a *Site) cardServerFor(cfg *serveConfig) *cardServer {
	o := cfg.card
	if o == nil {
		return nil
	}
	card, err := servercard.Build(a.Name, a.Version, a.revisions(), *o)
	if err != nil {
		panic(err.Error())
	}
	u, _ := url.Parse(o.Endpoint) // Build checked it
	cs := &cardServer{path: strings.TrimSuffix(u.Path, "/") + servercard.Path, card: newServedDoc(card, servercard.MediaType),
		hosts: cfg.allowedHosts, localhost: cfg.sdkHTTP == nil || !cfg.sdkHTTP.DisableLocalhostProtection}
	if o.Catalog {
		doc := newServedDoc(servercard.CatalogOf(card, servercard.URL(o.Endpoint)), "application/json")
		cs.catalog = &doc
	}
	return cs
}

// revisions are the protocol revisions the app's servers negotiate,
// newest first: the go-sdk's, less those WithServerOptions leaves out,
// as server/discover and initialize answer them.
func (a *Site) revisions() []string {
	all := mcp.SupportedProtocolVersions()
	if so := a.ServerOptions; so != nil && len(so.SupportedProtocolVersions) > 0 {
		all = slices.DeleteFunc(all, func(v string) bool { return !slices.Contains(so.SupportedProtocolVersions, v) })
	}
	return all
}

// paths are where c serves: the card's path, and the catalog's.
func (c *cardServer) paths() []string {
	if c.catalog == nil {
		return []string{c.path}
	}
	return []string{c.path, servercard.CatalogPath, servercard.AICatalogPath}
}

// wrap serves the card and the catalog, and passes every other request to
// next.
func (c *cardServer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == c.path:
			c.serve(w, r, &c.card)
		case c.catalog != nil && (r.URL.Path == servercard.CatalogPath || r.URL.Path == servercard.AICatalogPath):
			c.serve(w, r, c.catalog)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// serve answers a request for doc: GET and HEAD, 304 to a matching
// If-None-Match, a CORS preflight, 405 otherwise.
func (c *cardServer) serve(w http.ResponseWriter, r *http.Request, doc *servedDoc) {
	if why := guard.HostRefusal(r, c.hosts, c.localhost); why != "" {
		http.Error(w, why, http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*") // public metadata, read-only
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
	h.Set("Access-Control-Expose-Headers", "ETag")
	h.Set("Access-Control-Max-Age", "86400")
	switch r.Method {
	case http.MethodOptions:
		w.WriteHeader(http.StatusNoContent)
		return
	case http.MethodGet, http.MethodHead:
	default:
		h.Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, "method not allowed: the document is read with GET", http.StatusMethodNotAllowed)
		return
	}
	h.Set("ETag", doc.etag)
	h.Set("Cache-Control", "public, max-age=3600")
	if matches(r.Header.Values("If-None-Match"), doc.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", doc.mediaType)
	h.Set("Content-Length", fmt.Sprint(len(doc.body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(doc.body)
}

// matches reports whether the If-None-Match header's values name etag
// (RFC 9110 §13.1.2: a weak comparison, "*" matching any).
func matches(values []string, etag string) bool {
	for _, header := range values {
		for tag := range strings.SplitSeq(header, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}
