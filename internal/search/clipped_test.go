package search

import (
	"testing"

	"github.com/matryer/is"
)

func TestClippedWordsFindTheirFullForm(t *testing.T) {
	is := is.New(t)
	ix := Build([]Doc{
		{Name: "repositories_list", Description: "List repositories."},
		{Name: "admins_add", Description: "Make a user an admin."},
		{Name: "invoices_send", Description: "Send an invoice."},
	})
	top := func(q string) int {
		hits := ix.Search(q, 1, nil, nil)
		is.Equal(len(hits), 1) // q finds a doc
		return hits[0].Doc
	}
	is.Equal(top("show my repo"), 0)         // a clipping of repositories
	is.Equal(top("add an administrator"), 1) // admin is a clipping of it
}
