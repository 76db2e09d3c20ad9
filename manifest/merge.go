package manifest

import (
	"fmt"
	"maps"
)

// URI is where a vurb app publishes its own manifest as a resource
// (App.PublishManifest), so that tools such as the vurb command can see
// what tools/list cannot show: its actions, groups and other exposition.
const URI = "vurb://manifest"

// Merge returns the manifest observed on the wire (tools/list and the
// rest) enriched with what the server published about itself at URI: its
// exposition, actions, groups and other exposition, and the actions and
// groups of each tool, prompt and resource. The observed lists stay as
// they are; the published manifest is used only when its tools are the
// observed ones (same digests), and otherwise Merge returns observed and
// an error that says so.
func Merge(observed, published Manifest) (Manifest, error) {
	observed, published = Normalize(observed), Normalize(published)
	if !maps.Equal(LockOf(observed).Tools, LockOf(published).Tools) {
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
