package search

import (
	"testing"

	"github.com/matryer/is"
)

func TestPhraseAtFindsTheLongestPhrase(t *testing.T) {
	is := is.New(t)
	ix := Build([]Doc{{Name: "files_delete", Description: "Remove a file."}, {Name: "events_cancel", Description: "Cancel an event."}})
	q := func(ws ...string) []qword {
		var out []qword
		for _, w := range ws {
			out = append(out, qword{w: w, stem: ix.stem(w), stop: stopWord(w)})
		}
		return out
	}
	is.Equal(ix.phraseAt(q("get", "rid", "of", "it"), nil), 3) // get rid of
	is.Equal(ix.phraseAt(q("call", "off", "it"), nil), 2)      // call off
	is.Equal(ix.phraseAt(q("calls", "off"), nil), 2)           // its stems
	is.Equal(ix.phraseAt(q("file", "off"), nil), 0)            // no phrase
	is.Equal(ix.phraseAt(q("off"), nil), 0)                    // one word
	is.Equal(string(joinStems(nil, q("wiping", "out"))), "wipe_out")
}

func TestPhraseFindsWhatItsWordsDoNot(t *testing.T) {
	is := is.New(t)
	ix := Build([]Doc{
		{Name: "events_cancel", Description: "Cancel an event."},
		{Name: "activities_log_call", Description: "Log a phone call."},
	})
	hits := ix.Search("call off the party", 2, nil, nil)
	is.True(len(hits) > 0)
	is.Equal(hits[0].Doc, 0) // "call off" is WordNet's cancel, and not a call
}
