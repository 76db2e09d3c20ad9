package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
)

// URI is where a vurb app publishes its own manifest as a resource
// (App.PublishManifest), so that tools such as the vurb command can see
// what tools/list cannot: its actions, groups and other exposition.
const URI = "vurb://manifest"

// Merge returns the manifest observed on the wire (tools/list and the
// rest) enriched with what the server published about itself at URI: its
// exposition, actions, groups and other exposition, the actions and
// groups of each tool, prompt and resource, and the auth of each tool
// whose listing says nothing of it. The observed lists stay as they are;
// the published manifest is used only when its tools are the observed
// ones (same digests, the published tools read as a listing shows them:
// see asListed), and otherwise Merge returns observed and an error that
// says so.
func Merge(observed, published Manifest) (Manifest, error) {
	observed, published = Normalize(observed), Normalize(published)
	if !maps.Equal(LockOf(observed).Tools, LockOf(asListed(published, observed)).Tools) {
		return observed, fmt.Errorf("the manifest the server publishes at %s does not describe the tools it lists; ignoring it", URI)
	}
	out := observed
	out.Exposition, out.Actions, out.Groups, out.Alternates = published.Exposition, published.Actions, published.Groups, published.Alternates
	tools := map[string]Tool{}
	for _, t := range published.Tools {
		tools[t.Name] = t
	}
	out.Tools = append([]Tool(nil), observed.Tools...)
	for i, t := range out.Tools {
		p := tools[t.Name]
		out.Tools[i].Actions, out.Tools[i].Groups = p.Actions, p.Groups
		if !declaresAuth(t) {
			out.Tools[i].Auth = p.Auth
		}
	}
	prompts := map[string][]string{}
	for _, p := range published.Prompts {
		prompts[p.Name] = p.Groups
	}
	out.Prompts = append([]Prompt(nil), observed.Prompts...)
	for i, p := range out.Prompts {
		out.Prompts[i].Groups = prompts[p.Name]
	}
	resources := map[string][]string{}
	for _, r := range append(published.Resources, published.ResourceTemplates...) {
		resources[r.id()] = r.Groups
	}
	for _, rs := range []*[]Resource{&out.Resources, &out.ResourceTemplates} {
		*rs = append([]Resource(nil), (*rs)...)
		for i, r := range *rs {
			(*rs)[i].Groups = resources[r.id()]
		}
	}
	return Normalize(out), nil
}

// asListed is published with the tools read as observed, a listing, can
// show them: tools/list has no field for the scopes a vurb action needs
// (RequireScopes), so a tool whose listing declares no security schemes
// in its _meta is compared without the auth its manifest gives it. Every
// other field a digest covers must be what the listing shows, so a
// manifest that describes other tools is still refused.
func asListed(published, observed Manifest) Manifest {
	silent := map[string]bool{}
	for _, t := range observed.Tools {
		silent[t.Name] = !declaresAuth(t)
	}
	published.Tools = append([]Tool(nil), published.Tools...)
	for i, t := range published.Tools {
		if silent[t.Name] {
			published.Tools[i].Auth = nil
		}
	}
	return published
}

// declaresAuth reports whether a listed tool says who may call it: the
// "securitySchemes" of its _meta, which authOf reads.
func declaresAuth(t Tool) bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(t.Meta, &meta) != nil {
		return false
	}
	_, ok := meta["securitySchemes"]
	return ok
}
