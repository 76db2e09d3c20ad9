// Package weborigin names a URL's web origin (RFC 6454): the one server a
// credential given for a URL may go to.
package weborigin

import (
	"net"
	"net/url"
	"strings"
)

// Of returns u's origin as scheme://host:port, in lower case, with the
// scheme's default port when u names none: a redirect to another port,
// or from https to http, is another origin.
func Of(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
