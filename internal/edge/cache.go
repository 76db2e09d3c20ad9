package edge

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Revision 2026-07-28 asks servers to say how long a client may cache a
// list or a read (ttlMs) and for whom (cacheScope). vurb derives both from
// what it knows:
//
//   - tools/list, prompts/list, resources/list, resources/templates/list
//     and server/discover: an app is frozen at Build, so its lists change
//     only when the server is redeployed. They are "public" (a list does
//     not depend on who asks: tag filters are per server) and fresh for
//     DefaultListTTL, or what WithListTTL says.
//   - but tools/list, when the app gives each caller its own list
//     (WithVisibility, RequireScopes): "private", since a shared cache
//     would hand one caller another's list, and stale at once, so that a
//     caller whose token gains or loses a scope lists anew at its next
//     call.
//   - resources/read: what the resource says (ResourceDef.TTL), else
//     immediately stale; "private", since a read may depend on who asks.
//   - skills/list, skills/get and reads of a skill's files :
//     like the lists, as a served skill never changes; but "private" and
//     stale at once, as is resources/list then, when what a caller sees of
//     the skills depends on who it is (WithSkillVisibility, scopes).
//
// Handshake-era clients see no change. ServerOptions.SetCacheable given
// through WithServerOptions runs after vurb's, and may change anything.

// DefaultListTTL is how long a client may cache the app's lists
// (vurb.WithListTTL).
const DefaultListTTL = 5 * time.Minute

// setCacheable is the app's ServerOptions.SetCacheable.
func (a *Site) setCacheable(user func(context.Context, mcp.Request, *mcp.Cacheable)) func(context.Context, mcp.Request, *mcp.Cacheable) {
	listTTL := DefaultListTTL
	if a.ListTTLSet {
		listTTL = a.ListTTL
	}
	perCaller := a.Class != nil || len(a.Scopes) > 0 || a.Plan.SessionFlows() // a session's list follows its workflow
	return func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) {
		if read, ok := req.(*mcp.ReadResourceRequest); ok {
			c.TTLMs, c.CacheScope = 0, "private"
			if read.Params != nil {
				if r := a.resourceFor(read.Params.URI); r != nil {
					c.TTLMs = int(r.TTL.Milliseconds())
					if r.Public {
						c.CacheScope = "public"
					}
				}
			}
		} else if _, tools := req.(*mcp.ListToolsRequest); tools && perCaller {
			c.TTLMs, c.CacheScope = 0, "private"
		} else {
			c.TTLMs, c.CacheScope = int(listTTL.Milliseconds()), "public"
		}
		if a.SkillCacheable != nil {
			a.SkillCacheable(req, c, int(listTTL.Milliseconds()))
		} // skills' lists and files
		if user != nil {
			user(ctx, req, c)
		}
	}
}

// resourceFor is the declared resource or template uri names, or nil.
func (a *Site) resourceFor(uri string) *Resource {
	for i, r := range a.Resources {
		if r.Matches(uri) {
			return &a.Resources[i]
		}
	}
	return nil
}
