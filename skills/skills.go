// Package skills is the wire protocol of the MCP Skills extension
// (SEP-2640, io.modelcontextprotocol/skills): its identifier, its methods,
// the shapes they carry and the limits it sets on one skill. A server
// built with vurb answers these methods; a go-sdk client calls them with
// mcp.CallCustomMethod after mcp.AddSendingCustomMethod, as vurbtest does:
//
//	mcp.AddSendingCustomMethod[*skills.ListParams, *skills.ListResult](client, skills.MethodList)
//	res, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](ctx, session, skills.MethodList, &skills.ListParams{})
//
// It stands apart from the root package because only a client (or a test)
// speaking the extension needs it: a server author declaring skills needs
// only vurb.Skill, vurb.Skills and vurb.WithSkillVisibility. It has no
// dependency beyond the go-sdk's mcp package.
package skills

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Extension is the identifier of the MCP Skills extension, under which a
// server that serves skills declares it in its capabilities.
const Extension = "io.modelcontextprotocol/skills"

// The Skills extension's methods, for mcp.AddSendingCustomMethod.
const (
	MethodList          = "skills/list"
	MethodGet           = "skills/get"
	MethodReadDirectory = "resources/directory/read"
)

// DirectoryMIMEType is the MIME type of a directory resource: a skill's
// root (skill://acme/refunds) and each of its folders.
const DirectoryMIMEType = "inode/directory"

// Limits SEP-2640 sets on one skill, its nested skills' files included: a
// host need not load a larger one, so vurb refuses to serve it.
const (
	MaxFiles = 512      // files in one skill
	MaxBytes = 16 << 20 // bytes in one skill, 16 MiB
)

// Entry is one skill's entry, as skills/list and skills/get send it: the
// URI of its SKILL.md, the SKILL.md's front matter as a JSON object, and
// every file of the skill with its digest and size.
type Entry struct {
	// URI is the SKILL.md's: skill://<skill-path>/SKILL.md.
	URI string `json:"uri"`
	// Frontmatter is the SKILL.md's YAML front matter: name and
	// description, and every other field its author wrote.
	Frontmatter map[string]any `json:"frontmatter"`
	// Resources are the skill's files, SKILL.md first: the complete list,
	// with those of the nested skills the caller may read.
	Resources []Resource `json:"resources"`
}

// Resource is one file of a skill.
type Resource struct {
	URI string `json:"uri"`
	// Digest is "sha256:" and the 64 lowercase hex digits of the SHA-256
	// of the file's bytes.
	Digest string `json:"digest"`
	// Size is the file's length in bytes.
	Size int64 `json:"size"`
}

// ListParams are the parameters of skills/list.
type ListParams struct {
	mcp.ParamsBase
	// Cursor is the NextCursor of the page before, "" for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListResult is the answer to skills/list: one page of the skills
// the caller may see.
type ListResult struct {
	mcp.ResultBase
	mcp.Cacheable
	Skills []*Entry `json:"skills"`
	// NextCursor, when not "", asks for the next page.
	NextCursor string `json:"nextCursor,omitempty"`
	// ResultType is "complete" for a 2026-07-28 request, absent before.
	ResultType string `json:"resultType,omitempty"`
}

// GetParams are the parameters of skills/get.
type GetParams struct {
	mcp.ParamsBase
	// URI is the skill's SKILL.md URI.
	URI string `json:"uri"`
}

// GetResult is the answer to skills/get.
type GetResult struct {
	mcp.ResultBase
	mcp.Cacheable
	Skill *Entry `json:"skill"`
	// ResultType is "complete" for a 2026-07-28 request, absent before.
	ResultType string `json:"resultType,omitempty"`
}

// ReadDirectoryParams are the parameters of resources/directory/read.
type ReadDirectoryParams struct {
	mcp.ParamsBase
	// URI is the directory's, without a trailing slash.
	URI string `json:"uri"`
	// Cursor is the NextCursor of the page before, "" for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ReadDirectoryResult is the answer to resources/directory/read: the
// directory's direct children, files with their resource metadata and
// folders with the MIME type DirectoryMIMEType.
type ReadDirectoryResult struct {
	mcp.ResultBase
	Resources []*mcp.Resource `json:"resources"`
	// NextCursor, when not "", asks for the next page.
	NextCursor string `json:"nextCursor,omitempty"`
	// ResultType is "complete" for a 2026-07-28 request, absent before.
	ResultType string `json:"resultType,omitempty"`
}
