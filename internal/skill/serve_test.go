package skill

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/skills"
)

func TestCursorRoundTrip(t *testing.T) {
	is := is.New(t)
	for _, i := range []int{1, 50, 2048} {
		got, err := parseCursor("skills/list", makeCursor(i), 4096, 64)
		is.NoErr(err)
		is.Equal(got, i)
	}
	start, err := parseCursor("skills/list", "", 0, 64)
	is.NoErr(err)
	is.Equal(start, 0)
	for _, bad := range []string{makeCursor(0), makeCursor(11), "not base64!", strings.Repeat("A", 40)} {
		_, err := parseCursor("skills/list", bad, 10, 8)
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "skills/list: invalid cursor"))
		is.True(len(err.Error()) < 120) // the cursor is quoted cut to maxEcho bytes
	}
}

func TestCapabilities(t *testing.T) {
	is := is.New(t)
	var set Set
	is.Equal(set.Capabilities(nil), (*mcp.ServerCapabilities)(nil)) // no skills: nothing declared
	set.Declare("git-workflow", "---\nname: git-workflow\ndescription: Commit well\n---\n")
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	out := set.Capabilities(caps)
	is.True(out != caps)
	is.Equal(caps.Extensions, map[string]any(nil)) // caps itself is not changed
	is.Equal(out.Extensions[skills.Extension], map[string]any{"directoryRead": true})
	is.True(out.Tools != nil)
}
