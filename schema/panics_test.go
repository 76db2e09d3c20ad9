package schema

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/matryer/is"
)

type (
	ListProjects struct {
		Limit int `json:"limit" validate:"required"`
	}
	badBool struct {
		Archived bool `json:"archived" validate:"required"`
	}
	badFloat struct {
		Ratio float64 `json:"ratio" validate:"required,gt=0"`
	}
	badOptionalPointer struct {
		Limit *int `json:"limit,omitempty" validate:"min=1"`
	}
	badOptionalString struct {
		Name string `json:"name,omitempty" validate:"min=3"`
	}
	badTag struct {
		Name string `json:"name" validate:"requird"`
	}
	dupEmbedded struct {
		ID string `json:"id"`
	}
	badDuplicate struct {
		dupEmbedded
		Other string `json:"id"`
	}
	badStringOpt struct {
		N int `json:"n,string"`
	}
	badChan struct {
		C chan int `json:"c"`
	}
	badInterface struct {
		R fmt.Stringer `json:"r"`
	}
	badHidden struct {
		Secret string `json:"-" validate:"required"`
	}
	badNested struct {
		Inner struct {
			Count int `json:"count" validate:"required"`
		} `json:"inner"`
	}
)

func TestCodecForPanics(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[ListProjects](), `schema: field Limit (json "limit") of ListProjects: validate:"required" on a non-pointer int rejects a legitimate 0; use *int`},
		{reflect.TypeFor[badBool](), `schema: field Archived (json "archived") of badBool: validate:"required" on a non-pointer bool rejects a legitimate false; use *bool`},
		{reflect.TypeFor[badFloat](), `schema: field Ratio (json "ratio") of badFloat: validate:"required" on a non-pointer float64 rejects a legitimate 0; use *float64`},
		{reflect.TypeFor[badOptionalPointer](), `schema: field Limit (json "limit") of badOptionalPointer: the field is optional (a pointer) but the validator rejects it when absent (rule "min" at "limit"); start the validate tag with "omitempty", or add "required"`},
		{reflect.TypeFor[badOptionalString](), `schema: field Name (json "name") of badOptionalString: the field is optional (omitempty) but the validator rejects it when absent (rule "min" at "name"); start the validate tag with "omitempty", or add "required"`},
		{reflect.TypeFor[badTag](), `schema: struct badTag: bad validate tag: Undefined validation function 'requird' on field 'Name'`},
		{reflect.TypeFor[badDuplicate](), `schema: field Other (json "id") of badDuplicate: JSON name "id" is also used by field ID of dupEmbedded; rename one of them`},
		{reflect.TypeFor[badStringOpt](), `schema: field N (json "n") of badStringOpt: the json ",string" option is not supported on input; declare the field as a string`},
		{reflect.TypeFor[badChan](), `schema: field C (json "c") of badChan: type chan int cannot be decoded from JSON`},
		{reflect.TypeFor[badInterface](), `schema: field R (json "r") of badInterface: interface type fmt.Stringer cannot be decoded from JSON; use any or json.RawMessage`},
		{reflect.TypeFor[badHidden](), `schema: struct badHidden: a field that JSON cannot set (json:"-") fails rule "required" when zero; remove the rule or expose the field`},
		{reflect.TypeFor[badNested](), `schema: field Count (json "count") of struct { Count int "json:\"count\" validate:\"required\"" }: validate:"required" on a non-pointer int rejects a legitimate 0; use *int`},
		{reflect.TypeFor[int](), `schema: CodecFor(int): want a struct or a pointer to a struct`},
		{reflect.TypeFor[*[]string](), `schema: CodecFor([]string): want a struct or a pointer to a struct`},
	}
	for _, tt := range tests {
		t.Run(tt.typ.String(), func(t *testing.T) {
			is := is.New(t)
			is.Equal(panicText(func() { CodecFor(tt.typ) }), tt.want)
		})
	}
}

func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

type (
	diveItem struct {
		Name string `json:"name" validate:"required"`
	}
	badNoDive struct {
		Items [][]diveItem `json:"items,omitempty"`
	}
)

func TestCodecForPanicsWithoutDive(t *testing.T) {
	is := is.New(t)
	is.Equal(panicText(func() { For[badNoDive]() }),
		`schema: field Items (json "items") of badNoDive: the elements of [][]schema.diveItem have validate rules that validator only checks after "dive"; add "dive,dive" to the validate tag`)
}
