package engine

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
)

// describeAction gathers what the describe package needs of an action.
func describeAction(a *ActionSpec) describe.Action {
	var required []string
	for _, f := range a.In.Fields() {
		if f.Required {
			required = append(required, f.Name)
		}
	}
	return describe.Action{
		Key:         a.Key,
		Description: a.Description,
		Required:    required,
		ReadOnly:    a.ReadOnly,
		Destructive: a.Destructive,
		Idempotent:  a.Idempotent,
		OpenWorld:   a.OpenWorld,
		Title:       a.Title,
		Cache:       a.Sync.Cache,
		Annotations: a.Annotations,
	}
}

// actionAnnotations are the explicit ones when the action set them, else
// those its semantics imply.
func actionAnnotations(a *ActionSpec, info describe.Action) *mcp.ToolAnnotations {
	if a.Annotations != nil {
		return a.Annotations
	}
	return describe.ForAction(info)
}

// agreedCache is the directive all actions share, or "" when they differ:
// a grouped tool's description speaks for all its actions or not at all.
func agreedCache(eps []*Endpoint) string {
	if len(eps) == 0 {
		return ""
	}
	cc := eps[0].spec.Sync.Cache
	for _, ep := range eps[1:] {
		if ep.spec.Sync.Cache != cc {
			return ""
		}
	}
	return cc
}
