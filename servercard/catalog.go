package servercard

import "strings"

// Where a host's MCP Catalog is served: the MCP Catalog's well-known
// URI, and the AI Catalog's, whose entries an MCP Catalog's are as they
// are.
const (
	CatalogPath   = "/.well-known/mcp/catalog.json"
	AICatalogPath = "/.well-known/ai-catalog.json"
)

// Catalog is an MCP Catalog: the servers a host offers.
type Catalog struct {
	SpecVersion string  `json:"specVersion"`
	Entries     []Entry `json:"entries"`
}

// Entry is a catalog's entry for one server card.
type Entry struct {
	Identifier  string `json:"identifier"`
	DisplayName string `json:"displayName"`
	Type        string `json:"type"`
	URL         string `json:"url"`
}

// CatalogOf returns the catalog of a host that serves card alone, served
// at cardURL. Its identifier is the domain-anchored URN of the card's
// name: com.example/weather is urn:air:example.com:weather.
func CatalogOf(card Card, cardURL string) Catalog {
	namespace, name, _ := strings.Cut(card.Name, "/")
	labels := strings.Split(namespace, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	display := card.Title
	if display == "" {
		display = name
	}
	return Catalog{SpecVersion: "draft", Entries: []Entry{{
		Identifier: "urn:air:" + strings.Join(labels, ".") + ":" + name, DisplayName: display, Type: MediaType, URL: cardURL}}}
}
