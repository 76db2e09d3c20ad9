package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/model"
)

// snapshot is what vurb learnt of a server: its manifest and how the
// session went.
type snapshot struct {
	manifest manifest.Manifest
	// protocol is the negotiated revision, "" for a manifest file.
	protocol string
	// skillTokens are the tokens of each skill's SKILL.md (skills.go).
	skillTokens map[string]int
}

// load reads a source: a manifest file as it is, a server by listing
// everything it offers.
func load(ctx context.Context, e *env, arg string) (snapshot, error) {
	src, err := parseSource(arg, true)
	if err != nil {
		return snapshot{}, err
	}
	if src.kind == manifestSource {
		data, err := os.ReadFile(src.raw)
		if err != nil {
			return snapshot{}, err
		}
		m, err := manifest.Parse(data)
		if err != nil {
			return snapshot{}, fmt.Errorf("%s: %w", src, err)
		}
		return snapshot{manifest: m}, nil
	}
	s, err := connect(ctx, e, src, nil)
	if err != nil {
		return snapshot{}, err
	}
	defer s.close()
	return list(ctx, e, s)
}

// list asks the server for everything it offers and writes it down.
func list(ctx context.Context, e *env, s *session) (snapshot, error) {
	init := s.InitializeResult()
	caps := init.Capabilities
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	var lists model.Lists
	var err error
	if caps.Tools != nil {
		e.progress.step("listing tools")
		lists.Tools, err = pages(ctx, e, s, "tools", func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
			r, err := s.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return r.Tools, r.NextCursor, nil
		})
		if err != nil {
			return snapshot{}, err
		}
	}
	if caps.Prompts != nil {
		e.progress.step("listing prompts")
		lists.Prompts, err = pages(ctx, e, s, "prompts", func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
			r, err := s.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return r.Prompts, r.NextCursor, nil
		})
		if err != nil {
			return snapshot{}, err
		}
	}
	if caps.Resources != nil {
		e.progress.step("listing resources")
		lists.Resources, err = pages(ctx, e, s, "resources", func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
			r, err := s.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return r.Resources, r.NextCursor, nil
		})
		if err != nil {
			return snapshot{}, err
		}
		lists.Templates, err = pages(ctx, e, s, "resources/templates", func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
			r, err := s.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return r.ResourceTemplates, r.NextCursor, nil
		})
		// Some servers with resources have no templates and refuse the
		// method: that is no template, not a failure. Running out of
		// time, bytes or pages is.
		var bound boundError
		if err != nil && (ctx.Err() != nil || s.budget.exceeded() || errors.As(err, &bound)) {
			return snapshot{}, err
		}
		if err != nil {
			e.progress.step("%v", err)
			lists.Templates = nil
		}
	}
	var server model.Server
	if info := init.ServerInfo; info != nil {
		server = model.Server{Name: info.Name, Title: info.Title, Version: info.Version}
	}
	server.Instructions = init.Instructions
	m, err := model.FromServer(server, lists)
	if err != nil {
		return snapshot{}, fmt.Errorf("the server's lists are inconsistent: %w", err)
	}
	snap := snapshot{manifest: manifest.Of(m), protocol: init.ProtocolVersion}
	if s.card != nil {
		card, err := s.card(ctx)
		if err != nil {
			return snapshot{}, err
		}
		snap.manifest.ServerCard = card
	}
	if err := snap.addSkills(ctx, e, s, caps); err != nil {
		return snapshot{}, err
	}
	e.progress.step("%d tools, %d prompts, %d resources, %d resource templates",
		len(lists.Tools), len(lists.Prompts), len(lists.Resources), len(lists.Templates))
	for _, r := range lists.Resources {
		if r.URI == manifest.URI {
			snap.merge(ctx, e, s)
		}
	}
	return snap, nil
}

// merge adds what a vurb server publishes about itself.
func (snap *snapshot) merge(ctx context.Context, e *env, s *session) {
	e.progress.step("reading the vurb manifest the server publishes")
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: manifest.URI})
	if err != nil || len(res.Contents) == 0 {
		e.progress.step("cannot read %s: %v", manifest.URI, err)
		return
	}
	published, err := manifest.Parse([]byte(res.Contents[0].Text))
	if err != nil {
		e.progress.step("%s: %v", manifest.URI, err)
		return
	}
	merged, err := manifest.Merge(snap.manifest, published)
	if err != nil {
		fmt.Fprintf(e.errOut, "vurb: %s\n", manifest.Visible(err.Error()))
		return
	}
	snap.manifest = merged
}

// boundError is a listing stopped by -max-pages or -max-items.
type boundError struct{ msg string }

// Error returns the message.
func (e boundError) Error() string { return e.msg }

// pages asks for every page of one list, the next with the cursor the
// last gave, and stops with an error when the server asks for more than
// -max-pages pages, sends more than -max-items items, or sends a cursor a
// second time: a server paging forever grew vurb by 50 MB a second until
// the timeout. (The go-sdk's iterators page without a bound.)
func pages[T any](ctx context.Context, e *env, s *session, what string, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, error) {
	var out []T
	seen := map[string]bool{}
	cursor := ""
	for n := 1; ; n++ {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return out, fmt.Errorf("%s/list: %w", what, s.explain(err))
		}
		out = append(out, items...)
		switch {
		case len(out) > e.opts.maxItems:
			return out, boundError{fmt.Sprintf("%s/list: the server lists more than %d %s; vurb stopped asking (-max-items raises the bound)",
				what, e.opts.maxItems, what[strings.LastIndex(what, "/")+1:])}
		case next == "":
			return out, nil
		case seen[next]:
			return out, boundError{fmt.Sprintf("%s/list: the server sent the cursor %q twice: its pages loop", what, oneLine(next, 40))}
		case n >= e.opts.maxPages:
			return out, boundError{fmt.Sprintf("%s/list: the server has more after %d pages; vurb stopped asking (-max-pages raises the bound)",
				what, e.opts.maxPages)}
		}
		if n > 1 && n%100 == 0 {
			e.progress.step("%s: %d pages, %d items", what, n, len(out))
		}
		seen[next], cursor = true, next
	}
}
