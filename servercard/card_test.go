package servercard_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/servercard"
)

var revisions = []string{"2026-07-28", "2025-11-25"}

// TestVersionsAreNotRanges: a pre-release or build part may hold what a
// range's core would not.
func TestVersionsAreNotRanges(t *testing.T) {
	is := is.New(t)
	for _, v := range []string{"1.0.0-rc.x", "1.0.0+build.x", "1.0.0-alpha.*", "2024.1", "1.2.3"} {
		_, err := servercard.Build("com.example/w", v, revisions, servercard.Options{Endpoint: "https://h/mcp", Description: "d"})
		is.NoErr(err) // a version, not a range
	}
	is.Equal(servercard.URL("https://h/mcp/?k=v#f"), "https://h/mcp/server-card")
}

func TestBuildDerivesTheCard(t *testing.T) {
	is := is.New(t)
	card, err := servercard.Build("com.example/weather", "1.2.0", revisions, servercard.Options{
		Endpoint: "https://mcp.example.com/mcp", Description: "Forecasts and alerts", Title: "Weather"})
	is.NoErr(err)
	is.Equal(card.Schema, servercard.SchemaURL)
	is.Equal(card.Remotes, []servercard.Remote{{Type: "streamable-http", URL: "https://mcp.example.com/mcp", SupportedProtocolVersions: revisions}})
	is.Equal(servercard.URL("https://mcp.example.com/mcp/"), "https://mcp.example.com/mcp/server-card")
	cat := servercard.CatalogOf(card, servercard.URL("https://mcp.example.com/mcp"))
	is.Equal(cat.Entries, []servercard.Entry{{Identifier: "urn:air:example.com:weather", DisplayName: "Weather",
		Type: "application/mcp-server-card+json", URL: "https://mcp.example.com/mcp/server-card"}})
}

// TestBuildNamesEveryMistake: what cannot be derived is a definition
// error saying what to change, all at once.
func TestBuildNamesEveryMistake(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		o             servercard.Options
		want          []string
	}{
		{"weather", "1.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{`the app's name "weather" is not a reverse-DNS name with one slash`}},
		{"com.example/a/b", "1.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"is not a reverse-DNS name"}},
		{"com.example/w", "", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"the app has no version: give it one with WithVersion"}},
		{"com.example/w", "^1.2.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{`the app's version "^1.2.0" is a range`}},
		{"com.example/w", "1.x", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"is a range"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "https://h/mcp"}, []string{"no description"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: strings.Repeat("é", 101)}, []string{"the description is 101 characters, past 100"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "/mcp", Description: "d"}, []string{`Options.Endpoint "/mcp" is not the absolute http(s) URL`}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "ftp://h/mcp", Description: "d"}, []string{"is not the absolute http(s) URL"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d", Icons: []servercard.Icon{{Src: "logo.png", Theme: "blue"}}},
			[]string{`Options.Icons[0].Src "logo.png" is not an absolute URL`, `Options.Icons[0].Theme "blue"`}},
		{"x", "", servercard.Options{}, []string{"reverse-DNS", "no version", "no description", "Options.Endpoint"}},
		{"com.example/w", "1.2.X", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"is a range"}},
		{"com.example/w", "1.2 || 2.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"is a range"}},
		{"com.example/w", "1.2.3 - 2.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d"}, []string{"is a range"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "HTTPS://h/mcp", Description: "d"}, []string{"a lower-case scheme"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "https://user:pw@h/mcp", Description: "d"}, []string{"no credentials"}},
		{"com.example/w", "1.0.0", servercard.Options{Endpoint: "https://h/mcp", Description: "d", Repository: &servercard.Repository{URL: "github.com/x"}},
			[]string{`Options.Repository.URL "github.com/x" is not an absolute URL`, "Options.Repository has no Source"}},
	} {
		t.Run(tc.name+" "+tc.version, func(t *testing.T) {
			is := is.New(t)
			_, err := servercard.Build(tc.name, tc.version, revisions, tc.o)
			is.True(err != nil)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\ndoes not say %q", err, w)
				}
			}
		})
	}
}
