package vurbtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/skills"
)

// maxSkillPages bounds the pages Skills and ReadDirectory ask for: a
// server paging forever fails the test instead of hanging it.
const maxSkillPages = 1000

// Skills returns every skill the server lists to this client
// (skills/list, the Skills extension), all pages read, in the server's
// order. It fails the test on an error, on a cursor sent twice and past
// 1,000 pages.
func (c *Client) Skills(opts ...CallOption) []*skills.Entry {
	c.t.Helper()
	c.skillMethods()
	var out []*skills.Entry
	cursor, seen := "", map[string]bool{}
	for range maxSkillPages {
		r := c.begin(opts)
		res, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](r.ctx, c.session, skills.MethodList,
			&skills.ListParams{ParamsBase: mcp.ParamsBase{Meta: r.meta}, Cursor: cursor})
		err = r.explain(err)
		r.end()
		if err != nil {
			c.t.Fatalf("vurbtest: skills/list: %v", err)
		}
		out = append(out, res.Skills...)
		if res.NextCursor == "" {
			return out
		}
		if seen[res.NextCursor] {
			c.t.Fatalf("vurbtest: skills/list: the server sent the cursor %q twice", res.NextCursor)
		}
		seen[res.NextCursor], cursor = true, res.NextCursor
	}
	c.t.Fatalf("vurbtest: skills/list: more than %d pages", maxSkillPages)
	return nil
}

// GetSkill returns the entry of the skill whose SKILL.md is at uri
// (skills/get), failing the test on an error.
func (c *Client) GetSkill(uri string, opts ...CallOption) *skills.Entry {
	c.t.Helper()
	res, err := c.GetSkillResult(uri, opts...)
	if err != nil {
		c.t.Fatalf("vurbtest: skills/get %s: %v", uri, err)
	}
	return res.Skill
}

// GetSkillError asks for the skill at uri, for a test that expects the
// server to refuse: it returns the error, and fails the test when the
// request succeeds.
func (c *Client) GetSkillError(uri string, opts ...CallOption) error {
	c.t.Helper()
	_, err := c.GetSkillResult(uri, opts...)
	if err == nil {
		c.t.Fatalf("vurbtest: skills/get %s succeeded; want an error", uri)
	}
	return err
}

// GetSkillResult sends skills/get for uri and returns what the client
// got: the result (ttlMs and cacheScope included) or the protocol error.
func (c *Client) GetSkillResult(uri string, opts ...CallOption) (*skills.GetResult, error) {
	c.t.Helper()
	c.skillMethods()
	r := c.begin(opts)
	defer r.end()
	res, err := mcp.CallCustomMethod[*skills.GetParams, *skills.GetResult](r.ctx, c.session, skills.MethodGet,
		&skills.GetParams{ParamsBase: mcp.ParamsBase{Meta: r.meta}, URI: uri})
	return res, r.explain(err)
}

// ReadSkill reads every file the entry lists, as a host loading the skill
// does, and checks each against the entry: its size and its SHA-256
// digest. It returns the files' bytes by URI, and fails the test on an
// error or a mismatch.
func (c *Client) ReadSkill(entry *skills.Entry, opts ...CallOption) map[string][]byte {
	c.t.Helper()
	out := make(map[string][]byte, len(entry.Resources))
	for _, f := range entry.Resources {
		res := c.ReadResource(f.URI, opts...)
		if len(res.Contents) != 1 {
			c.t.Fatalf("vurbtest: resources/read %s: %d contents; want 1", f.URI, len(res.Contents))
		}
		data := res.Contents[0].Blob
		if res.Contents[0].Blob == nil {
			data = []byte(res.Contents[0].Text)
		}
		sum := sha256.Sum256(data)
		if digest := "sha256:" + hex.EncodeToString(sum[:]); int64(len(data)) != f.Size || digest != f.Digest {
			c.t.Fatalf("vurbtest: %s: read %d bytes with digest %s; the entry of %s says %d bytes, %s",
				f.URI, len(data), digest, entry.URI, f.Size, f.Digest)
		}
		out[f.URI] = data
	}
	return out
}

// ReadDirectory returns the children of the directory resource at uri
// (resources/directory/read, the Skills extension), all pages read,
// failing the test on an error.
func (c *Client) ReadDirectory(uri string, opts ...CallOption) []*mcp.Resource {
	c.t.Helper()
	out, err := c.readDirectory(uri, opts)
	if err != nil {
		c.t.Fatalf("vurbtest: resources/directory/read %s: %v", uri, err)
	}
	return out
}

// ReadDirectoryError reads the directory at uri, for a test that expects
// the server to refuse: it returns the error, and fails the test when the
// read succeeds.
func (c *Client) ReadDirectoryError(uri string, opts ...CallOption) error {
	c.t.Helper()
	_, err := c.readDirectory(uri, opts)
	if err == nil {
		c.t.Fatalf("vurbtest: resources/directory/read %s succeeded; want an error", uri)
	}
	return err
}

func (c *Client) readDirectory(uri string, opts []CallOption) ([]*mcp.Resource, error) {
	c.skillMethods()
	var out []*mcp.Resource
	cursor, seen := "", map[string]bool{}
	for range maxSkillPages {
		r := c.begin(opts)
		res, err := mcp.CallCustomMethod[*skills.ReadDirectoryParams, *skills.ReadDirectoryResult](r.ctx, c.session, skills.MethodReadDirectory,
			&skills.ReadDirectoryParams{ParamsBase: mcp.ParamsBase{Meta: r.meta}, URI: uri, Cursor: cursor})
		err = r.explain(err)
		r.end()
		if err != nil {
			return nil, err
		}
		out = append(out, res.Resources...)
		if res.NextCursor == "" {
			return out, nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("the server sent the cursor %q twice", res.NextCursor)
		}
		seen[res.NextCursor], cursor = true, res.NextCursor
	}
	return nil, fmt.Errorf("more than %d pages", maxSkillPages)
}

// skillMethods lets the client send the Skills extension's methods.
func (c *Client) skillMethods() {
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*skills.ListParams, *skills.ListResult](c.client, skills.MethodList),
		mcp.AddSendingCustomMethod[*skills.GetParams, *skills.GetResult](c.client, skills.MethodGet),
		mcp.AddSendingCustomMethod[*skills.ReadDirectoryParams, *skills.ReadDirectoryResult](c.client, skills.MethodReadDirectory),
	} {
		if err != nil {
			c.t.Fatalf("vurbtest: %v", err)
		}
	}
}
