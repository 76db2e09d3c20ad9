package weborigin

import (
	"net/url"
	"testing"

	"github.com/matryer/is"
)

func TestOfNamesTheSchemeHostAndPort(t *testing.T) {
	is := is.New(t)
	for raw, want := range map[string]string{
		"https://MCP.example.com/mcp":       "https://mcp.example.com:443",
		"HTTPS://mcp.example.com:443/x?q":   "https://mcp.example.com:443",
		"http://127.0.0.1:8080/mcp":         "http://127.0.0.1:8080",
		"http://[::1]/mcp":                  "http://[::1]:80",
		"https://user@mcp.example.com:8443": "https://mcp.example.com:8443",
	} {
		u, err := url.Parse(raw)
		is.NoErr(err)
		is.Equal(Of(u), want) // raw
	}
}
