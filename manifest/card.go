package manifest

import (
	"slices"
	"strings"

	"github.com/vurb-go/vurb/servercard"
)

// serverCard classifies the changes of a server's card (SEP-2127): the
// card or one of its remotes gone, its name changed, or a protocol
// revision a remote no longer speaks break a client that found the server
// by it; a new card, remote or revision does not. The version and the
// descriptive fields are the server's to change.
func (d *differ) serverCard(old, new *servercard.Card) {
	const path = "server-card"
	switch {
	case old == nil && new == nil:
		return
	case new == nil:
		d.add(CardRemoved, true, path, "the server card is no longer served: clients and registries that find the server by it lose it")
		return
	case old == nil:
		d.add(CardAdded, false, path, "new server card")
		return
	}
	if old.Name != new.Name {
		d.add(CardChanged, true, path+"/name", "the card's name changed from %q to %q: registries know the server by it", old.Name, new.Name)
	}
	if old.Description != new.Description || old.Title != new.Title {
		d.add(DescriptionChanged, false, path, "the card's title or description changed")
	}
	pair(old.Remotes, new.Remotes, func(r servercard.Remote) string { return r.URL },
		func(r servercard.Remote) {
			d.add(RemoteRemoved, true, path+"/remotes/"+r.URL, "remote removed: clients that connect there fail")
		},
		func(r servercard.Remote) { d.add(RemoteAdded, false, path+"/remotes/"+r.URL, "new remote") },
		func(a, b servercard.Remote) {
			p := path + "/remotes/" + a.URL
			if gone := minus(a.SupportedProtocolVersions, b.SupportedProtocolVersions); len(gone) > 0 {
				d.add(RevisionRemoved, true, p, "no longer speaks MCP %s: clients of that revision fail", strings.Join(gone, ", "))
			}
			if added := minus(b.SupportedProtocolVersions, a.SupportedProtocolVersions); len(added) > 0 {
				d.add(RevisionAdded, false, p, "now speaks MCP %s too", strings.Join(added, ", "))
			}
			if a.Type != b.Type {
				d.add(RemoteRemoved, true, p, "the transport changed from %s to %s", a.Type, b.Type)
			}
		})
}

// normalizedCard sorts the card's remotes by URL; a remote's revisions
// keep their order (newest first, as the server lists them).
func normalizedCard(c *servercard.Card) *servercard.Card {
	if c == nil {
		return nil
	}
	n := *c
	n.Remotes = slices.Clone(c.Remotes)
	slices.SortFunc(n.Remotes, func(x, y servercard.Remote) int { return strings.Compare(x.URL, y.URL) })
	return &n
}
