package bench

import "testing"

// TestServedAnswers checks that every contender, over every transport,
// answers one tools/call with the text "golang" when served from its own
// process, so that the served figures compare the same work. It also
// checks the stats side channel answers.
func TestServedAnswers(t *testing.T) {
	for _, tr := range servedTransports {
		for _, name := range servedContenders {
			if !servedSupports(name, tr.name) {
				continue
			}
			t.Run(name+"/"+tr.name, func(t *testing.T) {
				t.Parallel()
				p, err := startServed(t, name, tr.name)
				if err != nil {
					t.Fatal(err)
				}
				defer func() {
					if err := p.close(); err != nil {
						t.Error(err)
					}
				}()
				before, err := p.stats()
				if err != nil {
					t.Fatal(err)
				}
				for range 2 { // the second call runs on a used connection or session
					if got := servedAnswer(t, p); got != wantText {
						t.Fatalf("result text %q, want %q", got, wantText)
					}
				}
				after, err := p.stats()
				if err != nil {
					t.Fatal(err)
				}
				if after.CPUNanos < before.CPUNanos || after.Allocs <= before.Allocs {
					t.Errorf("stats did not move: before %+v, after %+v", before, after)
				}
			})
		}
	}
}

// servedAnswer makes one call through a fresh client (for stdio, the
// process's own) and decodes the answer whole.
func servedAnswer(t *testing.T, p *servedProc) string {
	t.Helper()
	if p.stdio != nil {
		payload, err := p.stdio.roundTrip()
		if err != nil {
			t.Fatal(err)
		}
		text, err := answerText(payload)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	c, err := dialHTTP(p.addr, p.transport)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.close(); err != nil {
			t.Error(err)
		}
	}()
	var text string
	for range 2 {
		payload, err := c.roundTrip()
		if err != nil {
			t.Fatal(err)
		}
		if text, err = answerText(payload); err != nil {
			t.Fatal(err)
		}
	}
	return text
}
