package manifest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
)

// tools/list has no field for the scopes a vurb action needs: a published
// tool that needs some describes a listed tool that says nothing of auth,
// and gives it its auth. A listed tool that declares its security schemes
// must be published with the same auth, and every other field a digest
// covers must still match.
func TestMergeTakesTheAuthAListingCannotShow(t *testing.T) {
	is := is.New(t)
	write := &manifest.Auth{Required: true, Scopes: []string{"projects:write"}}
	observed := plain(t, 0, 1) // tools a and b, neither saying who may call
	published := observed
	published.Tools = slices.Clone(observed.Tools)
	published.Tools[0].Auth = write
	merged, err := manifest.Merge(observed, published)
	is.NoErr(err)
	is.Equal(merged.Tools[0].Auth, write)
	is.True(merged.Tools[1].Auth == nil)
	is.Equal(manifest.LockOf(merged).Tools, manifest.LockOf(published).Tools) // the lock of what was merged is the published one

	published.Tools[0].Description = "not what the server lists"
	_, err = manifest.Merge(observed, published)
	is.True(err != nil) // auth aside, a published tool is what the listing shows

	read := &manifest.Auth{Required: true, Scopes: []string{"projects:read"}}
	observed.Tools = slices.Clone(observed.Tools)
	observed.Tools[0].Meta = json.RawMessage(`{"securitySchemes":[{"type":"oauth2","scopes":["projects:read"]}]}`)
	observed.Tools[0].Auth = read
	published.Tools[0].Description = observed.Tools[0].Description
	_, err = manifest.Merge(observed, published)
	is.True(err != nil) // the listing says projects:read, the manifest projects:write
	published.Tools[0].Auth = read
	merged, err = manifest.Merge(observed, published)
	is.NoErr(err)
	is.Equal(merged.Tools[0].Auth, read)
}
