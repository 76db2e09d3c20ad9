package skill

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/skills"
)

// dirPageSize bounds a page of resources/directory/read.
const dirPageSize = 100

// readDir answers resources/directory/read: the direct children of one
// of a skill's folders (its root, skill://acme/refunds, or one below)
// that the caller may list. A folder the caller sees no skill of is
// unknown to it; a file is not a folder.
func (x *skillIndex) readDir(ctx context.Context, rt *engine.Runtime, r *mcp.ServerRequest[*skills.ReadDirectoryParams]) (mcp.Result, error) {
	if r.Params == nil || r.Params.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resources/directory/read: params.uri must be a directory's URI"}
	}
	uri := strings.TrimSuffix(r.Params.URI, "/")
	o := x.origin(ctx, r, r.Params.Meta)
	seen := x.seenBy(&o)
	d := x.dirs[uri]
	var known bool
	var missing []string
	if d != nil {
		known, missing = dirAccess(d.owners, seen, &o)
	}
	if !known {
		why := "no directory resource is served at %q"
		if f := x.files[r.Params.URI]; f != nil && granted(f.owner, seen, &o) {
			why = "%q is a file, not a directory resource"
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "resources/directory/read: " + fmt.Sprintf(why, engine.Truncate(r.Params.URI, x.maxEcho))}
	}
	if missing != nil {
		return nil, refused(rt, "directory "+engine.Truncate(uri, x.maxEcho), missing)
	}
	var shown []*mcp.Resource
	for _, c := range d.children {
		if listedChild(c, seen, &o) {
			shown = append(shown, c.res)
		}
	}
	start, err := parseCursor("resources/directory/read", r.Params.Cursor, len(shown), x.maxEcho)
	if err != nil {
		return nil, err
	}
	res := &skills.ReadDirectoryResult{Resources: []*mcp.Resource{}, ResultType: resultType(r)}
	end := min(start+dirPageSize, len(shown))
	res.Resources = append(res.Resources, shown[start:end]...)
	if end < len(shown) {
		res.NextCursor = makeCursor(end)
	}
	return res, nil
}
