package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestProtectedServerNeedsCredentials: vurb inspect of a server that
// answered 401 said it "did not answer as an MCP server ... Unauthorized",
// which a newcomer could not act on. Now it says the server needs
// credentials, shows its challenge and how -H gives them; given
// credentials it refuses, it says that instead.
func TestProtectedServerNeedsCredentials(t *testing.T) {
	const challenge = `Bearer realm="mcp", resource_metadata="https://auth.example/.well-known/oauth-protected-resource"`
	var status int
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", challenge)
		http.Error(w, http.StatusText(status), status)
	}))
	t.Cleanup(h.Close)
	url := h.URL + "/mcp"
	try := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append(args, "-q", "-timeout", "20s"), &out, &errOut)
		return code, errOut.String()
	}
	is := is.New(t)

	status = http.StatusUnauthorized
	code, stderr := try("inspect", url)
	is.Equal(code, exitTrouble)
	is.Equal(stderr, "vurb inspect: "+url+" needs credentials: it answered 401 Unauthorized (WWW-Authenticate: "+challenge+
		`); give them with -H "Authorization: Bearer <token>"`+"\n")
	code, stderr = try("call", url, "anything") // every command that connects says it
	is.Equal(code, exitTrouble)
	is.True(strings.Contains(stderr, "needs credentials"))

	code, stderr = try("inspect", url, "-H", "Authorization: Bearer expired")
	is.Equal(code, exitTrouble)
	is.Equal(stderr, "vurb inspect: "+url+" refused the credentials given with -H: it answered 401 Unauthorized (WWW-Authenticate: "+challenge+
		`); check them (-H "Authorization: Bearer <token>")`+"\n")

	status = http.StatusForbidden
	code, stderr = try("inspect", url)
	is.Equal(code, exitTrouble)
	is.True(strings.Contains(stderr, url+" needs credentials: it answered 403 Forbidden (WWW-Authenticate: "))
	code, stderr = try("inspect", url, "-H", "authorization: Bearer narrow")
	is.Equal(code, exitTrouble)
	is.True(strings.Contains(stderr, "refused the credentials given with -H: it answered 403 Forbidden"))
	is.True(strings.HasSuffix(stderr, "they do not allow this (a scope or a role is missing)\n"))

	challengeless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Forbidden: invalid Host header", http.StatusForbidden)
	}))
	t.Cleanup(challengeless.Close)
	code, stderr = try("inspect", challengeless.URL)
	is.Equal(code, exitTrouble)
	is.Equal(stderr, "vurb inspect: "+challengeless.URL+" refused the request: it answered 403 Forbidden; "+
		`if it needs credentials, give them with -H "Authorization: Bearer <token>"`+"\n")
}

func TestCredentialsFor(t *testing.T) {
	is := is.New(t)
	for challenge, want := range map[string]string{
		"":                            "Bearer <token>",
		`Bearer realm="x"`:            "Bearer <token>",
		`bearer, error="invalid"`:     "Bearer <token>",
		`Basic realm="admin"`:         "Basic <base64 of user:password>",
		`DPoP algs="ES256"`:           "DPoP <token>",
		"Evil\"$(rm)`x` realm=1":      "Evil(rm)x <credentials>", // a shell takes the hint as it is
		"Negotiate\x1b]0;pwned\x07 x": "Negotiate]0;pwned <credentials>",
	} {
		is.Equal(credentialsFor(challenge), want) // challenge
	}
}
