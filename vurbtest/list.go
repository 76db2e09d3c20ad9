package vurbtest

import (
	"context"
	"iter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools returns every tool the server lists to this client, all pages
// read, in the server's order (the go-sdk's: by name). It fails the test
// on an error. On 2026-07-28 the go-sdk client caches list results for as
// long as the server allows.
func (c *Client) Tools() []*mcp.Tool {
	c.t.Helper()
	return collect(c, "tools/list", c.session.Tools)
}

// Prompts returns every prompt the server lists, as Tools does.
func (c *Client) Prompts() []*mcp.Prompt {
	c.t.Helper()
	return collect(c, "prompts/list", c.session.Prompts)
}

// Resources returns every resource the server lists, as Tools does.
func (c *Client) Resources() []*mcp.Resource {
	c.t.Helper()
	return collect(c, "resources/list", c.session.Resources)
}

// ResourceTemplates returns every resource template the server lists, as
// Tools does.
func (c *Client) ResourceTemplates() []*mcp.ResourceTemplate {
	c.t.Helper()
	return collect(c, "resources/templates/list", c.session.ResourceTemplates)
}

// collect reads every page of a list.
func collect[P any, T any](c *Client, method string, list func(context.Context, P) iter.Seq2[T, error]) []T {
	c.t.Helper()
	r := c.begin(nil)
	defer r.end()
	var zero P
	var out []T
	for item, err := range list(r.ctx, zero) {
		if err != nil {
			c.t.Fatalf("vurbtest: %s: %v", method, r.explain(err))
		}
		out = append(out, item)
	}
	return out
}

// GetPrompt gets the prompt called name with args, failing the test on an
// error.
func (c *Client) GetPrompt(name string, args map[string]string, opts ...CallOption) *mcp.GetPromptResult {
	c.t.Helper()
	res, err := c.getPrompt(name, args, opts)
	if err != nil {
		c.t.Fatalf("vurbtest: prompts/get %s: %v", name, err)
	}
	return res
}

// GetPromptError gets the prompt called name with args, for a test that
// expects the server to refuse: it returns the error, and fails the test
// when the request succeeds.
func (c *Client) GetPromptError(name string, args map[string]string, opts ...CallOption) error {
	c.t.Helper()
	_, err := c.getPrompt(name, args, opts)
	if err == nil {
		c.t.Fatalf("vurbtest: prompts/get %s succeeded; want an error", name)
	}
	return err
}

func (c *Client) getPrompt(name string, args map[string]string, opts []CallOption) (*mcp.GetPromptResult, error) {
	r := c.begin(opts)
	defer r.end()
	res, err := c.session.GetPrompt(r.ctx, &mcp.GetPromptParams{Meta: r.meta, Name: name, Arguments: args})
	return res, r.explain(err)
}

// ReadResource reads the resource at uri, failing the test on an error.
func (c *Client) ReadResource(uri string, opts ...CallOption) *mcp.ReadResourceResult {
	c.t.Helper()
	res, err := c.readResource(uri, opts)
	if err != nil {
		c.t.Fatalf("vurbtest: resources/read %s: %v", uri, err)
	}
	return res
}

// ReadResourceError reads the resource at uri, for a test that expects
// the server to refuse: it returns the error, and fails the test when the
// read succeeds.
func (c *Client) ReadResourceError(uri string, opts ...CallOption) error {
	c.t.Helper()
	_, err := c.readResource(uri, opts)
	if err == nil {
		c.t.Fatalf("vurbtest: resources/read %s succeeded; want an error", uri)
	}
	return err
}

func (c *Client) readResource(uri string, opts []CallOption) (*mcp.ReadResourceResult, error) {
	r := c.begin(opts)
	defer r.end()
	res, err := c.session.ReadResource(r.ctx, &mcp.ReadResourceParams{Meta: r.meta, URI: uri})
	return res, r.explain(err)
}
