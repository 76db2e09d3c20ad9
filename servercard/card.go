package servercard

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The SEP's fixed values.
const (
	// SchemaURL is the $schema every card names.
	SchemaURL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// MediaType is a card's media type.
	MediaType = "application/mcp-server-card+json"
	// Path is appended to the streamable HTTP endpoint's URL to serve the
	// card there (https://mcp.example.com/mcp/server-card).
	Path = "/server-card"
	// StreamableHTTP is the transport type of a streamable HTTP remote.
	StreamableHTTP = "streamable-http"
)

// Options is what an app says for its card beyond its name and version.
type Options struct {
	// Endpoint is the public URL of the app's streamable HTTP endpoint,
	// as clients reach it (https://mcp.example.com/mcp): the card's
	// remote, and the card is served at Endpoint + Path.
	Endpoint string
	// Description says what the server does, in 1 to 100 characters.
	Description string
	// Title is a display name (at most 100 characters), "" for none.
	Title string
	// WebsiteURL is the server's homepage or documentation, "" for none.
	WebsiteURL string
	// Icons are sized icons a client may show.
	Icons []Icon
	// Repository is where the server's source lives, nil for nowhere
	// public.
	Repository *Repository
	// Catalog also serves an MCP Catalog listing the card at the
	// endpoint's host, at /.well-known/mcp/catalog.json and
	// /.well-known/ai-catalog.json: for a host that serves this one
	// server.
	Catalog bool
}

// Card is a server card, as served.
type Card struct {
	Schema      string      `json:"$schema"`
	Name        string      `json:"name"`
	Version     string      `json:"version"`
	Description string      `json:"description"`
	Title       string      `json:"title,omitempty"`
	WebsiteURL  string      `json:"websiteUrl,omitempty"`
	Icons       []Icon      `json:"icons,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	Remotes     []Remote    `json:"remotes"`
}

// Remote is a URL the server is reached at.
type Remote struct {
	Type                      string   `json:"type"`
	URL                       string   `json:"url"`
	SupportedProtocolVersions []string `json:"supportedProtocolVersions"`
}

// Icon is an icon a client may show.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"` // "light" or "dark"
}

// Repository is where a server's source lives.
type Repository struct {
	URL       string `json:"url"`
	Source    string `json:"source"` // the forge: "github"
	ID        string `json:"id,omitempty"`
	Subfolder string `json:"subfolder,omitempty"`
}

// namePattern is the SEP's: a reverse-DNS namespace, one slash, a name.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// isRange reports whether version is a range, which the SEP refuses
// (^1.2.3, ~1.2.3, >=1.2.3, 1.x, 1.*, 1.2 || 2.0, 1.2.3 - 2.0.0): a
// wildcard counts in the version's core only, before a pre-release or
// build part, where 1.0.0-rc.x is a version.
func isRange(version string) bool {
	if strings.ContainsAny(version[:1], "^~<>=") || strings.Contains(version, "||") || strings.Contains(version, " - ") {
		return true
	}
	core, _, _ := strings.Cut(version, "-")
	core, _, _ = strings.Cut(core, "+")
	for part := range strings.SplitSeq(core, ".") {
		if part == "x" || part == "X" || part == "*" {
			return true
		}
	}
	return false
}

// Build returns the card of the server called name at version, reached at
// o.Endpoint over the protocol revisions given (newest first, as
// server/discover lists them), or every definition error joined, each
// saying what to change.
func Build(name, version string, revisions []string, o Options) (Card, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("vurb: server card: "+format, args...))
	}
	switch {
	case len(name) < 3 || len(name) > 200 || !namePattern.MatchString(name):
		bad("the app's name %q is not a reverse-DNS name with one slash (com.example/weather): give WithName one, 3 to 200 characters of letters, digits, '.', '-' before the slash and '_' too after it", name)
	}
	switch {
	case version == "":
		bad("the app has no version: give it one with WithVersion (1.0.2)")
	case len(version) > 255:
		bad("the app's version is longer than 255 bytes")
	case isRange(version):
		bad("the app's version %q is a range: give one version (1.0.2)", version)
	}
	switch n := utf8.RuneCountInString(o.Description); {
	case n == 0:
		bad("no description: say what the server does in Options.Description, 1 to 100 characters")
	case n > 100:
		bad("the description is %d characters, past 100: shorten it (it is what a registry lists)", n)
	}
	if n := utf8.RuneCountInString(o.Title); n > 100 {
		bad("the title is %d characters, past 100", n)
	}
	if u, err := url.Parse(o.Endpoint); err != nil || !strings.HasPrefix(o.Endpoint, "https://") && !strings.HasPrefix(o.Endpoint, "http://") ||
		u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(o.Endpoint, " \t\r\n") {
		bad("Options.Endpoint %q is not the absolute http(s) URL of the endpoint as clients reach it (https://mcp.example.com/mcp): a lower-case scheme, a host, no credentials, query or fragment", o.Endpoint)
	}
	if o.WebsiteURL != "" {
		if u, err := url.Parse(o.WebsiteURL); err != nil || u.Scheme == "" {
			bad("Options.WebsiteURL %q is not an absolute URL", o.WebsiteURL)
		}
	}
	for i, ic := range o.Icons {
		if u, err := url.Parse(ic.Src); err != nil || u.Scheme == "" {
			bad("Options.Icons[%d].Src %q is not an absolute URL (https: or data:)", i, ic.Src)
		}
		if ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
			bad(`Options.Icons[%d].Theme %q is neither "light" nor "dark"`, i, ic.Theme)
		}
	}
	if r := o.Repository; r != nil {
		if u, err := url.Parse(r.URL); err != nil || u.Scheme == "" || u.Host == "" {
			bad("Options.Repository.URL %q is not an absolute URL", r.URL)
		}
		if r.Source == "" {
			bad(`Options.Repository has no Source: name the forge ("github")`)
		}
	}
	if len(revisions) == 0 {
		bad("the server supports no protocol revision")
	}
	if err := errors.Join(errs...); err != nil {
		return Card{}, err
	}
	return Card{Schema: SchemaURL, Name: name, Version: version, Description: o.Description, Title: o.Title,
		WebsiteURL: o.WebsiteURL, Icons: o.Icons, Repository: o.Repository,
		Remotes: []Remote{{Type: StreamableHTTP, URL: o.Endpoint, SupportedProtocolVersions: revisions}}}, nil
}

// URL is where the card of a server whose endpoint is endpoint is served:
// the endpoint's path plus Path, without its query or fragment.
func URL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return strings.TrimSuffix(endpoint, "/") + Path
	}
	u.Path, u.RawPath = strings.TrimSuffix(u.Path, "/")+Path, ""
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}
