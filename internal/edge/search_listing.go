package edge

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// searchListing answers tools/list under tool search: the search listing
// as the caller sees it (vs, when not nil), with the tools of the server's
// own that are not the app's (a server vurb is attached to), all on one
// page, by name. The go-sdk pages over every tool it serves, the app's
// thousands among them; the listing reads its pages through and leaves
// them out. It is nil without search.
func searchListing(p *engine.Plan, vs *Views) mcp.Middleware {
	if !p.Searching() {
		return nil
	}
	return toolsList(func(ctx context.Context, next mcp.MethodHandler, list *mcp.ListToolsRequest, lr *mcp.ListToolsResult) (mcp.Result, error) {
		var v view
		if vs != nil {
			o := listOrigin(ctx, list)
			v = vs.list(&o)
		}
		out := *lr
		out.Tools, out.NextCursor = p.Listing(v), ""
		for page := lr; ; {
			for _, t := range page.Tools {
				if !p.Has(t.Name) {
					out.Tools = append(out.Tools, t) // not the app's: the server's own
				}
			}
			if page.NextCursor == "" {
				break
			}
			more := *list
			more.Params = &mcp.ListToolsParams{Cursor: page.NextCursor}
			if list.Params != nil {
				more.Params.Meta = list.Params.Meta
			}
			res, err := next(ctx, "tools/list", &more)
			if err != nil {
				return nil, err
			}
			var ok bool
			if page, ok = res.(*mcp.ListToolsResult); !ok || page == nil {
				break
			}
		}
		slices.SortFunc(out.Tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
		return &out, nil
	})
}
