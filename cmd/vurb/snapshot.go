package main

import (
	"context"
	"fmt"
	"iter"
	"os"

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
		if lists.Tools, err = all(s.Tools(ctx, nil)); err != nil {
			return snapshot{}, fmt.Errorf("tools/list: %w", err)
		}
	}
	if caps.Prompts != nil {
		e.progress.step("listing prompts")
		if lists.Prompts, err = all(s.Prompts(ctx, nil)); err != nil {
			return snapshot{}, fmt.Errorf("prompts/list: %w", err)
		}
	}
	if caps.Resources != nil {
		e.progress.step("listing resources")
		if lists.Resources, err = all(s.Resources(ctx, nil)); err != nil {
			return snapshot{}, fmt.Errorf("resources/list: %w", err)
		}
		// Some servers with resources have no templates and refuse the
		// method: that is no template, not a failure.
		if lists.Templates, err = all(s.ResourceTemplates(ctx, nil)); err != nil {
			e.progress.step("resources/templates/list: %v", err)
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
		fmt.Fprintf(e.errOut, "vurb: %v\n", err)
		return
	}
	snap.manifest = merged
}

// all drains a go-sdk list iterator (which pages for us).
func all[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}
