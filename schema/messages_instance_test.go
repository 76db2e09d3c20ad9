package schema

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
)

// marked returns the built-in texts, each prefixed with mark, so that a
// test can tell which Messages worded an issue.
func marked(mark string) *Messages {
	m := DefaultMessages()
	v := reflect.ValueOf(m).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.String {
			f.SetString(mark + f.String())
		}
	}
	for k, text := range m.Rules {
		m.Rules[k] = mark + text
	}
	return m
}

// enumSorted has a field whose enum tag the pre-scan enforces.
type enumSorted struct {
	Sort string `json:"sort,omitempty" enum:"name,created"`
	Page *int8  `json:"page,omitempty" enum:"1,2"`
}

// refusal is one bad call and the Codec it is made to.
type refusal struct {
	name   string
	codec  *Codec
	in     string
	limits Limits
}

func refusals() []refusal {
	return []refusal{
		{"too large", For[decodeInput](), `{"workspace_id":"w"}`, Limits{MaxBytes: 5}},
		{"too deep", For[decodeInput](), `{"workspace_id":"w","meta":[[[1]]]}`, Limits{MaxDepth: 2}},
		{"invalid JSON", For[decodeInput](), `{"workspace_id":`, Limits{}},
		{"bad character", For[decodeInput](), `{"workspace_id":x}`, Limits{}},
		{"not an object", For[decodeInput](), `[]`, Limits{}},
		{"unknown and missing", For[decodeInput](), `{"Workspace_ID":"w"}`, Limits{}},
		{"several unknown", For[decodeInput](), `{"workspace_id":"w","a":1,"b":2}`, Limits{}},
		{"duplicate", For[decodeInput](), `{"workspace_id":"w","workspace_id":"x"}`, Limits{}},
		{"wrong type", For[decodeInput](), `{"workspace_id":5}`, Limits{}},
		{"rules", For[decodeInput](), `{"workspace_id":"","limit":500,"kind":"z","email":"x","level":300,"ratio":1e39,` +
			`"since":"yesterday","pair":[1,2,3],"name":"ab","items":[{"name":"a"}]}`, Limits{}},
		{"rule on a small struct", For[benchInput](), `{"workspace_id":"w","limit":0}`, Limits{}},
		{"enum tag", For[enumSorted](), `{"sort":"size","page":3}`, Limits{}},
		{"many missing", CodecFor(wideStruct()), `{"f0":1,"f1":1,"f2":1,"f4":1,"f5":1,"f6":1,"f7":1,"f8":1,"f9":1,"f10":1,` +
			`"f11":1,"f12":1,"f13":1,"f14":1,"f15":1,"f16":1,"f17":1,"f18":1,"f19":1,"f20":1,"f21":1}`, Limits{}},
	}
}

// decodeIssues decodes r with msgs and returns the issues.
func decodeIssues(t *testing.T, r refusal, msgs *Messages) []Issue {
	t.Helper()
	err := r.codec.Decode([]byte(r.in), reflect.New(r.codec.Type()).Interface(), DecodeOptions{Limits: r.limits, Messages: msgs})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: want an *Error, got %v", r.name, err)
	}
	return e.Issues
}

// TestMessagesWordEveryIssue: every issue, whichever part of Decode finds
// it (pre-scan, suggestions, the validator, the issue cap), is worded by
// the Messages of the call, and nil means the built-in texts.
func TestMessagesWordEveryIssue(t *testing.T) {
	m := marked("[A] ")
	for _, r := range refusals() {
		t.Run(r.name, func(t *testing.T) {
			is := is.New(t)
			plain := decodeIssues(t, r, nil)
			got := decodeIssues(t, r, m)
			is.Equal(len(got), len(plain))
			for i, issue := range got {
				is.True(strings.HasPrefix(issue.Message, "[A] ")) // worded by the call's Messages
				is.Equal(issue.Path, plain[i].Path)
				is.True(!strings.Contains(plain[i].Message, "[A]")) // nil: the built-in texts
			}
		})
	}
}

func TestMessagesMaxIssues(t *testing.T) {
	is := is.New(t)
	m := DefaultMessages()
	m.MaxIssues = 2
	m.MoreIssues = "+%d"
	r := refusals()[len(refusals())-1] // 21 strings sent as numbers, 2 required strings missing
	issues := decodeIssues(t, r, m)
	is.Equal(len(issues), 3)
	is.Equal(issues[2].Message, "+21")        // 21 type mismatches and 2 missing fields, 2 listed
	is.True(len(decodeIssues(t, r, nil)) > 3) // the default cap is DefaultMaxIssues
}

func TestLookupWithMessages(t *testing.T) {
	is := is.New(t)
	m := DefaultMessages()
	m.DuplicateField = "twice: %s"
	m.TooLarge = "big: %d > %d"
	_, _, err := Lookup([]byte(`{"action":"a","action":"b"}`), "action", DecodeOptions{Messages: m})
	is.Equal(err.Error(), `twice: "action"`)
	_, _, err = Lookup([]byte(`{"action":"a"}`), "action", DecodeOptions{Messages: m, Limits: Limits{MaxBytes: 3}})
	is.Equal(err.Error(), `big: 14 > 3`)
}

func TestMergeWithMessages(t *testing.T) {
	is := is.New(t)
	m := DefaultMessages()
	m.DiscriminatorDescription = "Was zu tun ist"
	m.DiscriminatorActions = ": %s"
	m.NoteAlwaysRequired = "(immer)"
	merged := string(Merge("action", For[projCommon](), []Member{
		{Key: "create", Codec: For[projCreate](), Description: "Anlegen"},
	}, m))
	is.True(strings.Contains(merged, `"description":"Was zu tun ist: create: Anlegen"`))
	is.True(strings.Contains(merged, `(immer)`))
	is.True(!strings.Contains(merged, "always required"))
}

func TestDefaultMessagesIsACopy(t *testing.T) {
	is := is.New(t)
	m := DefaultMessages()
	m.Required = "changed"
	m.Rules["email"] = "changed"
	fresh := DefaultMessages()
	is.Equal(fresh.Required, "is required")
	is.Equal(fresh.Rules["email"], "must be a valid email address")
	is.Equal(builtin.Rules["email"], "must be a valid email address")
	is.True(reflect.DeepEqual(fresh, builtin))
	is.Equal(fresh.MaxIssues, DefaultMaxIssues)
}

// TestMessagesConcurrent decodes with two Messages at once: each call gets
// its own texts (run with -race).
func TestMessagesConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mark := []string{"[A] ", "[B] "}[g%2]
			m := marked(mark)
			for range 20 {
				for _, r := range refusals() {
					for _, issue := range decodeIssues(t, r, m) {
						if !strings.HasPrefix(issue.Message, mark) {
							t.Errorf("%s: want %q texts, got %q", r.name, mark, issue.Message)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestMergeTierNotesWhenSet(t *testing.T) {
	is := is.New(t)
	m := DefaultMessages()
	m.NoteRequiredFor, m.NoteRequiredAndFor, m.NoteFor = "Pflicht für: %s", "Pflicht für: %s. Für: %s", "Für: %s"
	m.NoteRequired = "(Pflicht)"
	merged := string(Merge("action", For[projCommon](), projMembers(), m))
	// Declared alike: the tier notes; declared differently: per-action lines.
	is.True(strings.Contains(merged, `"description":"Full-text query. Pflicht für: search"`))
	is.True(strings.Contains(merged, `"description":"create (Pflicht): Project name\nupdate: New name"`))
}
