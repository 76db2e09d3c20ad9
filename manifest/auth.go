package manifest

import (
	"encoding/json"
	"slices"
)

// Auth is what a caller needs to call a tool: whether it must be
// authorized at all, and the OAuth scopes it must hold.
type Auth struct {
	// Required is true when an anonymous call is refused.
	Required bool `json:"required"`
	// Scopes are the scopes a caller must hold, sorted.
	Scopes []string `json:"scopes,omitempty"`
}

// ScopeFree reports whether a caller without any scope may call: no auth
// at all, or an auth that asks for none.
func (a *Auth) ScopeFree() bool { return a == nil || len(a.Scopes) == 0 }

// authOf reads the security schemes a tool declares in its _meta (the
// "securitySchemes" array of the MCP tool security proposal, as OpenAI's
// Apps SDK also reads it: {"type":"noauth"} or {"type":"oauth2","scopes":
// [...]}), or, for a vurb action, its scopes. It returns nil for a tool
// that says nothing, which a client must take as open.
func authOf(meta map[string]any, scopes []string) *Auth {
	if len(scopes) > 0 {
		return &Auth{Required: true, Scopes: sorted(scopes)}
	}
	raw, ok := meta["securitySchemes"]
	if !ok {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var schemes []struct {
		Type   string   `json:"type"`
		Scopes []string `json:"scopes"`
	}
	if json.Unmarshal(data, &schemes) != nil || len(schemes) == 0 {
		return nil
	}
	var all []string
	for _, s := range schemes {
		if s.Type == "noauth" {
			return nil // anonymous calls are accepted
		}
		all = append(all, s.Scopes...)
	}
	// Sorted and compacted, not looked up one by one: a server lists as
	// many scopes as it likes.
	return &Auth{Required: true, Scopes: sorted(all)}
}

func sorted(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
