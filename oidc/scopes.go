package oidc

import "strings"

// scopes reads the scopes a token grants: "scope", a space-separated
// string (RFC 8693 §4.2, RFC 9068 §2.2.3), and "scp", which Okta writes as
// a list and Entra ID as a space-separated string. Each scope appears
// once, in the order the claims give them.
func scopes(claims map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, name := range []string{"scope", "scp"} {
		switch v := claims[name].(type) {
		case string:
			for _, s := range strings.Fields(v) {
				add(s)
			}
		case []any:
			for _, s := range v {
				if str, ok := s.(string); ok {
					add(str)
				}
			}
		}
	}
	return out
}
