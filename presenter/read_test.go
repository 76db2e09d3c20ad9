package presenter

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Read reads back the block vurb writes after the data (as
// internal/presenter's TestNotesText pins it), whatever block it is in.
func TestRead(t *testing.T) {
	is := is.New(t)
	block := "Rules:\n" +
		"- amounts are in cents\n" +
		"- invoice 42 is overdue\n" +
		"Left out:\n" +
		"- customers[].invoices: 2 of 5 items shown, 3 left out; narrow the query with status\n" +
		"- the result: 20 of 50 Invoice shown, 30 left out (3 lists)\n" +
		"Next actions:\n" +
		`- billing {"action":"pay","invoice_id":"INV-3","n":7}: invoice INV-3 is open` + "\n" +
		`- billing_list {}`
	got, ok := Read(&mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "{}"}, &mcp.ImageContent{MIMEType: "image/png"}, &mcp.TextContent{Text: block},
	}})
	is.True(ok)
	is.Equal(got, Presentation{
		Rules: []string{"amounts are in cents", "invoice 42 is overdue"},
		LeftOut: []LeftOut{
			{Path: "customers[].invoices", Type: "items", Shown: 2, Total: 5, Lists: 1, Narrow: []string{"status"}},
			{Path: "", Type: "Invoice", Shown: 20, Total: 50, Lists: 3},
		},
		Next: []NextCall{
			{Tool: "billing", Arguments: map[string]any{"action": "pay", "invoice_id": "INV-3", "n": json.Number("7")}, Reason: "invoice INV-3 is open"},
			{Tool: "billing_list", Arguments: map[string]any{}},
		},
	})
}

// A result without a presentation block reads as none.
func TestReadNone(t *testing.T) {
	is := is.New(t)
	for _, res := range []*mcp.CallToolResult{
		nil,
		{Content: []mcp.Content{&mcp.TextContent{Text: "Rules:\n- data alone is never a block"}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}, &mcp.TextContent{Text: "a note"}}},
	} {
		_, ok := Read(res)
		is.True(!ok)
	}
}
