package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/vurb-go/vurb/servercard"
)

// LockFormat names the shape of a lockfile.
const LockFormat = "vurb.lock/v1"

// Lock pins a server's contract: one digest per tool, action, prompt,
// resource and resource template, each over what a client depends on
// (names, schemas, annotations, auth, descriptions, how an action runs as
// a task, what its presenters redact) and nothing else, so
// a new server version, a reordered list or a changed _meta leaves it
// unchanged. Digests are "sha256:" and the hex SHA-256 of the entity's
// canonical JSON.
type Lock struct {
	Format            string            `json:"format"`
	Server            string            `json:"server"`
	Tools             map[string]string `json:"tools"`
	Actions           map[string]string `json:"actions,omitempty"`
	Prompts           map[string]string `json:"prompts,omitempty"`
	Resources         map[string]string `json:"resources,omitempty"`
	ResourceTemplates map[string]string `json:"resourceTemplates,omitempty"`
	// ServerCard pins the server card by its name: its name and remotes
	// (URLs, transports, revisions), what finding and reaching the server
	// depend on.
	ServerCard map[string]string `json:"serverCard,omitempty"`
}

// LockOf digests the manifest m.
func LockOf(m Manifest) Lock {
	m = Normalize(m)
	l := Lock{Format: LockFormat, Server: m.Server.Name, Tools: map[string]string{}}
	for _, t := range m.Tools {
		l.Tools[t.Name] = digest(struct {
			Name, Title, Description  string
			InputSchema, OutputSchema json.RawMessage
			Annotations               *Annotations
			Auth                      *Auth
		}{t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations, t.Auth})
	}
	for _, a := range m.Actions {
		l.Actions = put(l.Actions, a.Key, digest(struct {
			Key, Title, Description   string
			InputSchema, OutputSchema json.RawMessage
			Annotations               *Annotations
			Auth                      *Auth
			// omitempty: an action that is no task keeps the digest it
			// had before tasks were pinned.
			Task *Task `json:",omitempty"`
			// omitempty too: an action nothing presents keeps its digest.
			Presentation *Presentation `json:",omitempty"`
		}{a.Key, a.Title, a.Description, a.InputSchema, a.OutputSchema, a.Annotations, a.Auth, a.Task, a.Presentation}))
	}
	for _, p := range m.Prompts {
		l.Prompts = put(l.Prompts, p.Name, digest(struct {
			Name, Title, Description string
			Arguments                []Argument
		}{p.Name, p.Title, p.Description, p.Arguments}))
	}
	res := func(r Resource) string {
		return digest(struct{ URI, URITemplate, Name, Title, Description, MIMEType string }{
			r.URI, r.URITemplate, r.Name, r.Title, r.Description, r.MIMEType})
	}
	for _, r := range m.Resources {
		l.Resources = put(l.Resources, r.URI, res(r))
	}
	for _, r := range m.ResourceTemplates {
		l.ResourceTemplates = put(l.ResourceTemplates, r.URITemplate, res(r))
	}
	if c := m.ServerCard; c != nil {
		l.ServerCard = put(l.ServerCard, c.Name, digest(struct {
			Name    string
			Remotes []servercard.Remote
		}{c.Name, c.Remotes}))
	}
	return l
}

func put(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// digest is the SHA-256 of v's canonical JSON.
func digest(v any) string {
	sum := sha256.Sum256(canonicalValue(v))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Marshal writes the lockfile: keys sorted, indented, ending in a newline.
func (l Lock) Marshal() ([]byte, error) { return marshal(l) }

// ParseLock reads a lockfile.
func ParseLock(data []byte) (Lock, error) {
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return Lock{}, fmt.Errorf("not a vurb lockfile: %w", err)
	}
	if err := checkFormat(l.Format, LockFormat); err != nil {
		return Lock{}, err
	}
	return l, nil
}

// Drift is one entity whose digest differs between two lockfiles.
type Drift struct {
	// Kind is "tool", "action", "prompt", "resource", "resourceTemplate"
	// or "serverCard".
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Change is "added", "removed" or "changed".
	Change string `json:"change"`
}

// String describes the drift in one line, the name made Visible: it is
// the server's, and could otherwise rewrite the line in a terminal.
func (d Drift) String() string { return d.Kind + " " + Visible(d.Name) + " " + d.Change }

// Check compares a pinned lockfile with the current one and returns every
// entity added, removed or changed, sorted by kind and name; none means
// the contract is what was pinned.
func Check(pinned, current Lock) []Drift {
	var out []Drift
	for _, k := range []struct {
		kind string
		a, b map[string]string
	}{
		{"tool", pinned.Tools, current.Tools},
		{"action", pinned.Actions, current.Actions},
		{"prompt", pinned.Prompts, current.Prompts},
		{"resource", pinned.Resources, current.Resources},
		{"resourceTemplate", pinned.ResourceTemplates, current.ResourceTemplates},
		{"serverCard", pinned.ServerCard, current.ServerCard},
	} {
		names := slices.Sorted(maps.Keys(k.a))
		for _, n := range slices.Sorted(maps.Keys(k.b)) {
			if _, ok := k.a[n]; !ok {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			was, wasOK := k.a[n]
			is, isOK := k.b[n]
			switch {
			case !wasOK:
				out = append(out, Drift{k.kind, n, "added"})
			case !isOK:
				out = append(out, Drift{k.kind, n, "removed"})
			case was != is:
				out = append(out, Drift{k.kind, n, "changed"})
			}
		}
	}
	return out
}
