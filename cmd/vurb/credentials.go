package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// A protected server answers 401 or 403, and the go-sdk's error says only
// "Unauthorized": a newcomer read `did not answer as an MCP server ...
// Unauthorized` and did not learn that -H takes the credentials. vurb
// notes the server's last such answer and says so.

// challenges notes the last answer of a server that asked for
// credentials, or refused those it was given (401 or 403), and forgets it
// once a request succeeds.
type challenges struct {
	next http.RoundTripper

	mu     sync.Mutex
	status int    // 401 or 403; 0 when the last answer was a success
	header string // its WWW-Authenticate
}

// RoundTrip sends r and notes the answer.
func (c *challenges) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		c.status, c.header = resp.StatusCode, strings.Join(resp.Header.Values("WWW-Authenticate"), ", ")
	case resp.StatusCode < 300:
		c.status, c.header = 0, ""
	}
	return resp, nil
}

// explain returns err, or, when the server's last answer asked for
// credentials, an error that says so and how to give them; headers are
// the -H headers given.
func (c *challenges) explain(err error, server string, headers []string) error {
	if c == nil || err == nil {
		return err
	}
	c.mu.Lock()
	status, header := c.status, c.header
	c.mu.Unlock()
	if status == 0 {
		return err
	}
	return credentialsError{server: server, status: status, challenge: header, given: authorizationGiven(headers), err: err}
}

// credentialsError is a server that wants credentials, or refused the
// ones it was given.
type credentialsError struct {
	server    string
	status    int
	challenge string // the WWW-Authenticate header, "" when none
	given     bool   // -H gave an Authorization header
	err       error
}

// Error says what the server answered and what to do: pass credentials
// with -H, in the scheme the server's challenge names (Bearer unless it
// names another).
func (e credentialsError) Error() string {
	answer := fmt.Sprintf("it answered %d %s", e.status, http.StatusText(e.status))
	if e.challenge != "" {
		answer += fmt.Sprintf(" (WWW-Authenticate: %s)", e.challenge)
	}
	hint := fmt.Sprintf(`-H "Authorization: %s"`, credentialsFor(e.challenge))
	if strings.HasPrefix(credentialsFor(e.challenge), "DPoP ") {
		hint += " -dpop-key <the PEM file of the key the token is bound to>"
	}
	switch {
	case !e.given && e.status == http.StatusForbidden && e.challenge == "":
		// No challenge: it may refuse vurb for another reason (the go-sdk
		// answers 403 to a Host header it does not serve).
		return fmt.Sprintf("%s refused the request: %s; if it needs credentials, give them with %s", e.server, answer, hint)
	case e.given && e.status == http.StatusForbidden:
		return fmt.Sprintf("%s refused the credentials given with -H: %s; they do not allow this (a scope or a role is missing)", e.server, answer)
	case e.given:
		return fmt.Sprintf("%s refused the credentials given with -H: %s; check them (%s)", e.server, answer, hint)
	}
	return fmt.Sprintf("%s needs credentials: %s; give them with %s", e.server, answer, hint)
}

// Unwrap returns the go-sdk's error.
func (e credentialsError) Unwrap() error { return e.err }

// credentialsFor is the Authorization value to show for a server's
// WWW-Authenticate challenge: its scheme and a placeholder.
func credentialsFor(challenge string) string {
	scheme, _, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	switch strings.ToLower(strings.TrimSuffix(scheme, ",")) {
	case "basic":
		return "Basic <base64 of user:password>"
	case "", "bearer":
		return "Bearer <token>"
	case "dpop":
		return "DPoP <token>"
	}
	return tokenOnly(scheme) + " <credentials>"
}

// tokenOnly keeps a server's word to the characters of a token (RFC
// 9110), so that a scheme shown in a command line is one a shell takes
// as it is.
func tokenOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r > ' ' && r < 0x7f && !strings.ContainsRune(`"'\$`+"`", r) {
			return r
		}
		return -1
	}, s)
}

// authorizationGiven reports whether -H gave an Authorization header.
func authorizationGiven(headers []string) bool {
	for _, h := range headers {
		name, _, _ := strings.Cut(h, ":")
		if strings.EqualFold(strings.TrimSpace(name), "Authorization") {
			return true
		}
	}
	return false
}
