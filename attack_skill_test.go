package vurb_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/skills"
	"github.com/vurb-go/vurb/vurbtest"
)

// Attacks on skills nested in a skill (issue #43): a nested skill's files
// lie in its enclosing skill's folder, and once were held by both, so a
// caller who saw the enclosing skill read the nested one's files, scopes
// and visibility notwithstanding.

// nestedSkillsApp serves acme, open to all; acme/vault, which needs the
// admin scope; acme/hidden, which only admins' class sees; and
// acme/hidden/deeper, which the rule shows to all but whose enclosing
// skill is hidden.
func nestedSkillsApp() *vurb.App {
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)),
		vurb.WithVisibility(roleClass, func(string, vurb.ActionInfo) bool { return true }),
		vurb.WithSkillVisibility(func(class string, s vurb.SkillInfo) bool {
			return class == "admin" || s.Path != "acme/hidden"
		}))
	vurb.Skill(app, "acme", "---\nname: acme\ndescription: Acme\n---\n").File("guide.md", []byte("the guide"))
	vurb.Skill(app, "acme/vault", "---\nname: vault\ndescription: The vault\n---\n").
		File("secret.md", []byte("the secret")).RequireScopes("admin")
	vurb.Skill(app, "acme/hidden", "---\nname: hidden\ndescription: Hidden\n---\n").File("plan.md", []byte("the plan"))
	vurb.Skill(app, "acme/hidden/deeper", "---\nname: deeper\ndescription: Deeper\n---\n").File("notes/x.md", []byte("deeper"))
	return app
}

// skillSession is a go-sdk client session that can send the Skills
// extension's methods.
type skillSession = *mcp.ClientSession

// nestedSkillPath opens a session of a caller holding token through one
// path to a server of nestedSkillsApp.
type nestedSkillPath struct {
	name string
	open func(t *testing.T, token string) skillSession
}

// nestedSkillPaths are the paths a skills request takes: the go-sdk client
// over HTTP on a loopback listener (a handshake-era session and a
// 2026-07-28 sessionless client, through the fast lane's server and
// without it) and the in-memory transport stdio's server uses.
func nestedSkillPaths(t *testing.T, app *vurb.App) []nestedSkillPath {
	verify := func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }
	lane, _ := protectedServer(t, app, verify, nil)
	noLane, _ := protectedServer(t, app, verify, nil, vurb.WithFastLane(false))
	overHTTP := func(url, version string) func(t *testing.T, token string) skillSession {
		return func(t *testing.T, token string) skillSession {
			bt := &bearerTransport{base: http.DefaultTransport}
			bt.set(token)
			client := withSkillMethods(t, mcp.NewClient(&mcp.Implementation{Name: "attacker", Version: "1"}, nil))
			cs, err := client.Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bt}, DisableStandaloneSSE: true},
				&mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		}
	}
	return []nestedSkillPath{
		{"http session 2025-11-25", overHTTP(lane.URL, "2025-11-25")},
		{"http sessionless 2026-07-28", overHTTP(lane.URL, "2026-07-28")},
		{"http no fast lane 2026-07-28", overHTTP(noLane.URL, "2026-07-28")},
		{"in-memory (stdio's server)", func(t *testing.T, token string) skillSession {
			c := vurbtest.New(t, app, vurbtest.Identity{Token: attackTokens[token]})
			c.Skills() // lets its client send the extension's methods
			return c.Session()
		}},
	}
}

func withSkillMethods(t *testing.T, c *mcp.Client) *mcp.Client {
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*skills.ListParams, *skills.ListResult](c, skills.MethodList),
		mcp.AddSendingCustomMethod[*skills.GetParams, *skills.GetResult](c, skills.MethodGet),
		mcp.AddSendingCustomMethod[*skills.ReadDirectoryParams, *skills.ReadDirectoryResult](c, skills.MethodReadDirectory),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func listSkills(cs skillSession) ([]*skills.Entry, error) {
	res, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](context.Background(), cs, skills.MethodList, &skills.ListParams{})
	if err != nil {
		return nil, err
	}
	return res.Skills, nil
}

func getSkill(cs skillSession, uri string) (*skills.Entry, error) {
	res, err := mcp.CallCustomMethod[*skills.GetParams, *skills.GetResult](context.Background(), cs, skills.MethodGet, &skills.GetParams{URI: uri})
	if err != nil {
		return nil, err
	}
	return res.Skill, nil
}

func readDir(cs skillSession, uri string) ([]*mcp.Resource, error) {
	res, err := mcp.CallCustomMethod[*skills.ReadDirectoryParams, *skills.ReadDirectoryResult](context.Background(), cs, skills.MethodReadDirectory,
		&skills.ReadDirectoryParams{URI: uri})
	if err != nil {
		return nil, err
	}
	return res.Resources, nil
}

func readFile(cs skillSession, uri string) (string, error) {
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	return res.Contents[0].Text, nil
}

func entryFiles(e *skills.Entry) []string {
	var out []string
	for _, r := range e.Resources {
		out = append(out, r.URI)
	}
	return out
}

func listedResources(t *testing.T, cs skillSession) []string {
	t.Helper()
	var out []string
	for r, err := range cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.URI)
	}
	return out
}

// neverServed is how the server answers a request about uri when no
// skill was ever there: the request sent about uri's twin at a path
// never declared, its error text with the twin's path put back.
func neverServed(uri string, ask func(string) error) string {
	twin := strings.Replace(uri, "skill://acme/", "skill://zzzz/", 1)
	err := ask(twin)
	if err == nil {
		return "<no error>"
	}
	return strings.ReplaceAll(err.Error(), twin, uri)
}

func errText(err error) string {
	if err == nil {
		return "<no error>"
	}
	return err.Error()
}

// TestAttackNestedSkillFilesFollowTheirOwnSkill: a caller without the
// nested skill's scope is refused its files, naming the scope, though it
// reads the enclosing skill; a skill the caller's class hides, and every
// skill nested in it, reads on every method exactly like one never
// served; and the enclosing skill's entry, folder and the lists show
// neither.
func TestAttackNestedSkillFilesFollowTheirOwnSkill(t *testing.T) {
	app := nestedSkillsApp()
	hidden := []string{
		"skill://acme/hidden/SKILL.md", "skill://acme/hidden/plan.md",
		"skill://acme/hidden/deeper/SKILL.md", "skill://acme/hidden/deeper/notes/x.md",
	}
	for _, p := range nestedSkillPaths(t, app) {
		for _, token := range []string{"bare-token", "viewer-token"} {
			t.Run(p.name+"/"+token, func(t *testing.T) {
				is := is.NewRelaxed(t) // every leak reported, not the first
				cs := p.open(t, token)

				skills, err := listSkills(cs)
				is.NoErr(err)
				is.Equal(uris(skills), []string{"skill://acme/SKILL.md"})
				is.Equal(entryFiles(skills[0]), []string{"skill://acme/SKILL.md", "skill://acme/guide.md"})
				acme, err := getSkill(cs, "skill://acme/SKILL.md")
				is.NoErr(err)
				is.Equal(entryFiles(acme), []string{"skill://acme/SKILL.md", "skill://acme/guide.md"})
				dir, err := readDir(cs, "skill://acme")
				is.NoErr(err)
				is.Equal(children(dir), []string{"SKILL.md text/markdown", "guide.md text/markdown"})
				is.Equal(listedResources(t, cs), []string{"skill://acme/SKILL.md"})
				text, err := readFile(cs, "skill://acme/guide.md")
				is.NoErr(err)
				is.Equal(text, "the guide")

				// The vault: known, refused naming its scope.
				for _, uri := range []string{"skill://acme/vault/secret.md", "skill://acme/vault/SKILL.md"} {
					_, err := readFile(cs, uri)
					is.Equal(code(err), int64(jsonrpc.CodeInvalidRequest)) // uri
					is.True(strings.Contains(errText(err), "needs the OAuth scope(s) admin"))
				}
				_, err = getSkill(cs, "skill://acme/vault/SKILL.md")
				is.True(strings.Contains(errText(err), "needs the OAuth scope(s) admin"))
				_, err = readDir(cs, "skill://acme/vault")
				is.True(strings.Contains(errText(err), "needs the OAuth scope(s) admin"))

				// Hidden, and nested in a hidden skill: never served.
				for _, uri := range hidden {
					_, err := readFile(cs, uri)
					is.Equal(errText(err), neverServed(uri, func(u string) error { _, err := readFile(cs, u); return err }))
					is.Equal(errText(cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri})),
						neverServed(uri, func(u string) error { return cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: u}) }))
					_, err = readDir(cs, uri)
					is.Equal(errText(err), neverServed(uri, func(u string) error { _, err := readDir(cs, u); return err }))
				}
				for _, uri := range []string{"skill://acme/hidden/SKILL.md", "skill://acme/hidden/deeper/SKILL.md"} {
					_, err := getSkill(cs, uri)
					is.Equal(errText(err), neverServed(uri, func(u string) error { _, err := getSkill(cs, u); return err }))
				}
				for _, uri := range []string{"skill://acme/hidden", "skill://acme/hidden/deeper", "skill://acme/hidden/deeper/notes"} {
					_, err := readDir(cs, uri)
					is.Equal(errText(err), neverServed(uri, func(u string) error { _, err := readDir(cs, u); return err }))
				}

				// No template leads to a skill's file.
				for tpl, err := range cs.ResourceTemplates(context.Background(), nil) {
					is.NoErr(err)
					is.True(!strings.HasPrefix(tpl.URITemplate, "skill:")) // tpl.URITemplate
				}
			})
		}
	}
}

// TestAttackNestedSkillsAllShownToWhoMaySeeThem: the admin, holding the
// scope and of the class that sees every skill, is shown and reads it
// all, nested skills' files in the enclosing skill's entry included.
func TestAttackNestedSkillsAllShownToWhoMaySeeThem(t *testing.T) {
	app := nestedSkillsApp()
	for _, p := range nestedSkillPaths(t, app) {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			cs := p.open(t, "admin-token")
			skills, err := listSkills(cs)
			is.NoErr(err)
			is.Equal(uris(skills), []string{"skill://acme/SKILL.md", "skill://acme/hidden/SKILL.md",
				"skill://acme/hidden/deeper/SKILL.md", "skill://acme/vault/SKILL.md"})
			is.Equal(entryFiles(skills[0]), []string{"skill://acme/SKILL.md", "skill://acme/guide.md",
				"skill://acme/hidden/SKILL.md", "skill://acme/hidden/deeper/SKILL.md", "skill://acme/hidden/deeper/notes/x.md",
				"skill://acme/hidden/plan.md", "skill://acme/vault/SKILL.md", "skill://acme/vault/secret.md"})
			dir, err := readDir(cs, "skill://acme")
			is.NoErr(err)
			is.Equal(children(dir), []string{"SKILL.md text/markdown", "guide.md text/markdown", "hidden inode/directory", "vault inode/directory"})
			for uri, want := range map[string]string{"skill://acme/vault/secret.md": "the secret", "skill://acme/hidden/plan.md": "the plan",
				"skill://acme/hidden/deeper/notes/x.md": "deeper"} {
				text, err := readFile(cs, uri)
				is.NoErr(err)
				is.Equal(text, want)
			}
		})
	}
}

// TestAttackNestedSkillOverRawSessionlessPOST: the same read, sent as a
// bare 2026-07-28 POST, is refused: no client library stands between the
// attacker and the server.
func TestAttackNestedSkillOverRawSessionlessPOST(t *testing.T) {
	is := is.New(t)
	srv, _ := protectedServer(t, nestedSkillsApp(), func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for uri, wantScope := range map[string]bool{
		"skill://acme/vault/secret.md": true, "skill://acme/vault/SKILL.md": true,
		"skill://acme/hidden/plan.md": false, "skill://acme/hidden/deeper/notes/x.md": false,
	} {
		out, _, err := postJSONRPC(srv.URL, "bare-token", "2026-07-28", "resources/read", uri, `{"uri":`+quote(uri)+`,`+meta+`}`)
		is.NoErr(err)
		is.True(out.Error != nil) // uri
		is.Equal(strings.Contains(out.Error.Message, "needs the OAuth scope(s) admin"), wantScope)
		is.True(!strings.Contains(string(out.Result), "the ")) // no contents
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
